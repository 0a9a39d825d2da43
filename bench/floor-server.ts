/**
 * The SQLite floor: a bare `node:http` server that reads the same rows as the other two servers
 * straight from the embedded database's SQLite file (`node:sqlite`, in this process), through the
 * same indexes the patched FerretDB uses — the key by the `_id` index, a blog by `_id` or by
 * `(workspaceId, slug)`, a list page and a keyset page as one range of `released_list`, a tag page
 * through the tags element table, the tag counts from that table — then `JSON.parse` of each row
 * and `JSON.stringify` of the answer, and a SHA-256 ETag of the body for conditional requests.
 * No driver, no wire protocol, no database process, no framework: the physical floor of a
 * consumer request on this storage (issue "cost per request"; BENCHMARKS.md, lab notes).
 *
 * Every statement's plan is checked at start (a search of an index, never a scan of a table or a
 * sort in a temporary B-tree, except the tag counts' grouping), so a floor that silently scanned
 * would fail rather than flatter the others. It answers the bench's data exactly (strings and
 * dates, tags without repeats); it is not a general MongoDB reader.
 *
 * Env: FLOOR_SQLITE, the database file (`<data dir>/<database>.sqlite`), opened read-only beside
 * the running launcher (SQLite's WAL lets a reader of another process see every commit).
 */
import { createHash } from "node:crypto";
import type http from "node:http";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { type StoredBlogFields, send, sendBody, serveBare, toBlog } from "./bare-http.js";

const file = process.env.FLOOR_SQLITE ?? "";
const db = new DatabaseSync(file, { readOnly: true });
db.exec("PRAGMA busy_timeout = 5000");

const tableOf = (collection: string): string => {
  const row = db
    .prepare("SELECT table_name AS t FROM _ferretdb_collections WHERE name = ?")
    .get(collection) as { t: string } | undefined;
  if (row === undefined) throw new Error(`no collection ${collection} in ${file}`);
  return `"${row.t}"`;
};
const blogs = tableOf("blogs");
const apiKeys = tableOf("apiKeys");
const tagElements = `"${blogs.slice(1, -1)}_pressroom_e_tags"`;

// The expressions of the launcher's indexes (server/embedded-db/exact_index.go, id_index.go):
// SQLite uses an expression index only for the same expression.
const typeOf = (f: string) => `_ferretdb_sjson->>'$."$s".p.${f}.t'`;
const rank = (f: string) =>
  `CASE ${typeOf(f)} WHEN 'null' THEN 1 WHEN 'double' THEN 2 WHEN 'int' THEN 2 WHEN 'long' THEN 2 ` +
  `WHEN 'string' THEN 3 WHEN 'object' THEN 4 WHEN 'array' THEN 5 WHEN 'binData' THEN 6 ` +
  `WHEN 'objectId' THEN 7 WHEN 'bool' THEN 8 WHEN 'date' THEN 9 WHEN 'timestamp' THEN 10 ` +
  `WHEN 'regex' THEN 11 ELSE 1 END`;
const value = (f: string) => `_ferretdb_sjson->>'${f}'`;
const byId = "_ferretdb_sjson->'$._id' = json_quote(?)";
const released = `${rank("workspaceId")} = 3 AND ${value("workspaceId")} = ? AND ${rank("status")} = 3 AND ${value("status")} = 'released' AND ${rank("releasedAt")} = 9`;
const newestFirst = `ORDER BY ${value("releasedAt")} DESC, ${rank("_id")} DESC, ${value("_id")} DESC`;
// Below the cursor (releasedAt, _id): the first term bounds the index range, as the patch does.
const belowCursor = `${value("releasedAt")} <= ? AND (${value("releasedAt")} < ? OR ${value("_id")} < ?)`;
const withTag = `rowid IN (SELECT rid FROM ${tagElements} WHERE v = ?)`;

function prepare(sql: string, allowTempBTree = false): StatementSync {
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
    .map((r) => r.detail)
    .join("; ");
  if (/\bSCAN\b/.test(plan) || (!allowTempBTree && plan.includes("TEMP B-TREE"))) {
    throw new Error(`the floor's query is not an index search: ${plan}\n${sql}`);
  }
  return db.prepare(sql);
}

const doc = "_ferretdb_sjson AS j";
/** The statements, once the launcher has made the indexes and the element table they use. */
function statements() {
  return {
    key: prepare(
      `SELECT ${value("workspaceId")} AS workspaceId, ${value("status")} AS status FROM ${apiKeys} WHERE ${byId}`,
    ),
    get: prepare(`SELECT ${doc} FROM ${blogs} WHERE ${byId}`),
    bySlug: prepare(
      `SELECT ${doc} FROM ${blogs} WHERE ${rank("workspaceId")} = 3 AND ${value("workspaceId")} = ? AND ${rank("slug")} = 3 AND ${value("slug")} = ?`,
    ),
    page: prepare(`SELECT ${doc} FROM ${blogs} WHERE ${released} ${newestFirst} LIMIT ?`),
    pageAfter: prepare(
      `SELECT ${doc} FROM ${blogs} WHERE ${released} AND ${belowCursor} ${newestFirst} LIMIT ?`,
    ),
    tagPage: prepare(
      `SELECT ${doc} FROM ${blogs} WHERE ${released} AND ${withTag} ${newestFirst} LIMIT ?`,
    ),
    fieldsPage: prepare(
      `SELECT ${value("_id")} AS id, ${value("slug")} AS slug, ${value("title")} AS title, ${value("releasedAt")} AS at FROM ${blogs} WHERE ${released} ${newestFirst} LIMIT ?`,
    ),
    tagCounts: prepare(
      `SELECT e.v AS tag, COUNT(*) AS count FROM ${blogs} AS b JOIN ${tagElements} AS e ON e.rid = b.rowid WHERE ${released.replaceAll("_ferretdb_sjson", "b._ferretdb_sjson")} GROUP BY e.v`,
      true,
    ),
  };
}

// The launcher's keeper adds its indexes and the tags element table within a second or so of
// the data arriving (server/embedded-db/README.md); until then a statement's table is missing or
// its plan is a scan. Wait for them, but not for ever.
async function prepared(): Promise<ReturnType<typeof statements>> {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      return statements();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
const q = await prepared();

/** A stored blog (FerretDB's sjson: values, with their types in `$s`; dates as ms). */
interface StoredBlog extends StoredBlogFields {
  workspaceId: string;
  status: string;
  releasedAt: number;
  updatedAt: number;
}

const parse = (row: unknown) => JSON.parse((row as { j: string }).j) as StoredBlog;
const cursorOf = (releasedAt: number, id: string) =>
  Buffer.from(JSON.stringify([releasedAt, id])).toString("base64url");

function sendPage(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  rows: { at: number; id: string; item: unknown }[],
  limit: number,
): void {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last !== undefined ? cursorOf(last.at, last.id) : null;
  sendBody(req, res, { data: page.map((r) => r.item), nextCursor });
}

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const raw = req.headers["x-api-key"];
  const key =
    typeof raw === "string"
      ? (q.key.get(createHash("sha256").update(raw).digest("hex")) as
          | { workspaceId: string; status: string }
          | undefined)
      : undefined;
  if (key === undefined || key.status !== "Active") {
    send(res, 401, '{"message":"Invalid or missing API key."}');
    return;
  }
  const ws = key.workspaceId;
  const url = new URL(req.url ?? "/", "http://x");
  const path = url.pathname;
  const notFound = () => send(res, 404, '{"message":"Blog not found."}');
  if (path.startsWith("/api/consumer/blogs/by-slug/")) {
    const row = q.bySlug.get(
      ws,
      decodeURIComponent(path.slice("/api/consumer/blogs/by-slug/".length)),
    );
    const d = row === undefined ? undefined : parse(row);
    if (d === undefined || d.status !== "released") {
      notFound();
      return;
    }
    sendBody(req, res, toBlog(d));
    return;
  }
  if (path.startsWith("/api/consumer/blogs/")) {
    const row = q.get.get(path.slice("/api/consumer/blogs/".length));
    const d = row === undefined ? undefined : parse(row);
    if (d === undefined || d.workspaceId !== ws || d.status !== "released") {
      notFound();
      return;
    }
    sendBody(req, res, toBlog(d));
    return;
  }
  if (path === "/api/consumer/blogs") {
    const limit = Number(url.searchParams.get("limit") ?? 20);
    const cursor = url.searchParams.get("cursor");
    const tag = url.searchParams.get("tag");
    const fields = url.searchParams.get("fields");
    const given = [cursor, tag, fields].filter((p) => p !== null).length;
    if (given > 1 || (fields !== null && fields !== "id,slug,title")) {
      // Only the combinations the scenarios send; anything else is refused, never answered wrong.
      send(res, 400, '{"message":"Not a request the floor answers."}');
      return;
    }
    if (fields !== null) {
      const rows = q.fieldsPage.all(ws, limit + 1) as {
        id: string;
        slug: string;
        title: string;
        at: number;
      }[];
      const items = rows.map((r) => ({
        at: r.at,
        id: r.id,
        item: { id: r.id, slug: r.slug, title: r.title },
      }));
      sendPage(req, res, items, limit);
      return;
    }
    let rows: unknown[];
    if (cursor !== null) {
      const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [number, string];
      rows = q.pageAfter.all(ws, at, at, id, limit + 1);
    } else if (tag !== null) {
      rows = q.tagPage.all(ws, tag, limit + 1);
    } else {
      rows = q.page.all(ws, limit + 1);
    }
    const items = rows.map(parse).map((d) => ({ at: d.releasedAt, id: d._id, item: toBlog(d) }));
    sendPage(req, res, items, limit);
    return;
  }
  if (path === "/api/consumer/tags") {
    const data = (q.tagCounts.all(ws) as { tag: string; count: number }[]).sort(
      (a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0),
    );
    sendBody(req, res, { data: data.map((t) => ({ tag: t.tag, count: t.count })) });
    return;
  }
  send(res, 404, '{"message":"Not found."}');
}

await serveBare(handle);
