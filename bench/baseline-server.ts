/**
 * The driver baseline: a bare `node:http` server doing only the irreducible work of each consumer
 * request through the MongoDB driver against the same database — the key's SHA-256, one
 * primary-key lookup of the key, the blog query (same filters, same sort, same keyset cursor; the
 * tag filter, the `fields=id,slug,title` projection, the lookup by slug and the tag counts'
 * aggregate too), `JSON.stringify`, and for conditional requests a SHA-256 ETag of the body. No
 * framework, no validation, no logging. Below it, floor-server.ts reads the same rows without a
 * driver or a database process.
 */
import { createHash } from "node:crypto";
import type http from "node:http";
import { send, sendBody, serveBare, toBlog } from "./bare-http.js";
import { benchMongoClient } from "./child-control.js";

interface KeyDoc {
  _id: string;
  workspaceId: string;
  status: string;
}
interface BlogDoc {
  _id: string;
  releasedAt: Date;
  updatedAt: Date;
  [field: string]: unknown;
}

const client = await benchMongoClient(process.env.MONGODB_URI ?? "");
const db = client.db(process.env.MONGODB_DB ?? "pressroom");
const apiKeys = db.collection<KeyDoc>("apiKeys");
const blogs = db.collection<BlogDoc>("blogs");

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const raw = req.headers["x-api-key"];
  const key =
    typeof raw === "string"
      ? await apiKeys.findOne(
          { _id: createHash("sha256").update(raw).digest("hex") },
          { projection: { workspaceId: 1, status: 1 } },
        )
      : null;
  if (key === null || key.status !== "Active") {
    return send(res, 401, '{"message":"Invalid or missing API key."}');
  }
  const url = new URL(req.url ?? "/", "http://x");
  const path = url.pathname;
  if (path.startsWith("/api/consumer/blogs/by-slug/")) {
    const slug = decodeURIComponent(path.slice("/api/consumer/blogs/by-slug/".length));
    const doc = await blogs.findOne({ workspaceId: key.workspaceId, slug, status: "released" });
    if (doc === null) return send(res, 404, '{"message":"Blog not found."}');
    return sendBody(req, res, toBlog(doc));
  }
  if (path.startsWith("/api/consumer/blogs/")) {
    // By `_id` alone, checked here: the primary index on MongoDB and on FerretDB alike.
    const doc = await blogs.findOne({ _id: path.slice("/api/consumer/blogs/".length) });
    if (doc === null || doc.workspaceId !== key.workspaceId || doc.status !== "released") {
      return send(res, 404, '{"message":"Blog not found."}');
    }
    return sendBody(req, res, toBlog(doc));
  }
  if (path === "/api/consumer/blogs") {
    const limit = Number(url.searchParams.get("limit") ?? 20);
    const cursor = url.searchParams.get("cursor");
    const filter: Record<string, unknown> = { workspaceId: key.workspaceId, status: "released" };
    const tags = url.searchParams.getAll("tag");
    if (tags.length > 0) filter.tags = { $in: tags };
    if (cursor !== null) {
      const [ms, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [number, string];
      const at = new Date(ms);
      filter.$or = [{ releasedAt: { $lt: at } }, { releasedAt: at, _id: { $lt: id } }];
    }
    const idSlugTitle = url.searchParams.get("fields") === "id,slug,title";
    const docs = await blogs
      .find(filter, idSlugTitle ? { projection: { slug: 1, title: 1, releasedAt: 1 } } : {})
      .sort({ releasedAt: -1, _id: -1 })
      .limit(limit + 1)
      .toArray();
    const page = docs.slice(0, limit);
    const view = idSlugTitle
      ? (d: BlogDoc) => ({ id: d._id, slug: d.slug, title: d.title })
      : toBlog;
    const last = page.at(-1);
    const nextCursor =
      docs.length > limit && last !== undefined
        ? Buffer.from(JSON.stringify([last.releasedAt.getTime(), last._id])).toString("base64url")
        : null;
    return sendBody(req, res, { data: page.map(view), nextCursor });
  }
  if (path === "/api/consumer/tags") {
    const groups = await blogs
      .aggregate<{ _id: string; count: number }>([
        { $match: { workspaceId: key.workspaceId, status: "released" } },
        { $project: { tags: 1 } },
        { $unwind: "$tags" },
        { $group: { _id: "$tags", count: { $sum: 1 } } },
      ])
      .toArray();
    const data = groups
      .map((g) => ({ tag: g._id, count: g.count }))
      .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    return sendBody(req, res, { data });
  }
  send(res, 404, '{"message":"Not found."}');
}

await serveBare(handle);
