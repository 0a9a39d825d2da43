/**
 * What bench/db-scaling.ts measures: one step per kind of request (a consumer read, or the
 * dashboard's create + release), each checking its answer and returning its time, and the
 * figures a variant (stock or patched FerretDB) collects per kind.
 */
import { listCursor } from "../../server/src/blogs/cursor.js";
import { ANY_VERSION } from "../admin-client.js";
import { markdown2k, prng, type ScalingSeed } from "../scaling-seed.js";
import { COMMON_TAG, RARE_TAG } from "../seed.js";
import type { Client, Reply } from "./http-client.js";

/** The embedded database's query path: FerretDB's own (stock), or with exact pushdown. */
export type Variant = "stock" | "patched";

export type MeasureId =
  | "list"
  | "deep"
  | "limit100"
  | "list304"
  | "get"
  | "bySlug"
  | "foreign404"
  | "changesIdle"
  | "tag10"
  | "tag01"
  | "tags"
  | "fields100"
  | "create";

export interface MeasureDef {
  id: MeasureId;
  title: string;
  /** Target at 10,000 blogs, patched (ms), for the p50 and the first requests; null: none. */
  target: number | null;
}

export const MEASURES: MeasureDef[] = [
  { id: "list", title: "list, first page (limit 20)", target: 15 },
  { id: "deep", title: "list, deep cursor page (the oldest 20)", target: 15 },
  { id: "limit100", title: "list, `limit=100`", target: 50 },
  { id: "list304", title: "list, `If-None-Match` (304)", target: 10 },
  { id: "get", title: "get one blog", target: 5 },
  { id: "bySlug", title: "get one blog by its slug", target: 5 },
  { id: "foreign404", title: "get another workspace's blog (404)", target: null },
  { id: "changesIdle", title: "changes feed, nothing changed (`since` caught up)", target: 10 },
  { id: "tag10", title: "tag page (limit 20), a tag on 10 % of blogs", target: 20 },
  { id: "tag01", title: "tag page (limit 20), a tag on 0.1 % of blogs", target: 50 },
  { id: "tags", title: "`/tags` (counts kept per change of the feed)", target: 20 },
  { id: "fields100", title: "list, `limit=100&fields=id,slug,title`", target: null },
  { id: "create", title: "create + release (admin API)", target: 20 },
];

export interface Figures {
  /** Successful samples, ms. */
  times: number[];
  failures: string[];
  /** The first request of its kind after both processes started. */
  first: number | null;
  /** The first after the database alone was restarted, the app staying up (reads only). */
  firstAfterDbRestart: number | null;
}

export interface VariantResult {
  variant: Variant;
  size: number;
  measures: Record<MeasureId, Figures>;
  /** Response bytes of a full page of 100 and of the same page with `fields=id,slug,title`. */
  bytes: { full: number; fields: number };
  /** Bytes: VmHWM after the reads ("while serving lists") and at the end. */
  rss: {
    dbLists: number;
    appLists: number;
    dbEnd: number;
    appEnd: number;
  };
  load: { start: number[]; end: number[] };
  seconds: number;
}

/** One request of a kind: returns its time, or throws when the answer is not the expected one. */
export type Step = () => Promise<number>;

const expect = (reply: Reply, status: number, what: string): Reply => {
  if (reply.status !== status) {
    throw new Error(`${what}: ${reply.status} (expected ${status}) ${reply.body.slice(0, 200)}`);
  }
  return reply;
};

interface ListBody {
  data: { id: string }[];
  nextCursor: string | null;
}

export function consumerSteps(
  api: Client,
  seed: ScalingSeed,
): Record<Exclude<MeasureId, "create">, Step> & {
  etag: () => string;
  /** The caught-up token `changesIdle` sends (changes-token.ts). */
  useChangesToken: (token: string) => void;
  /** Bytes of the last `limit100` page and of the last `fields100` page. */
  bytes: () => { full: number; fields: number };
} {
  const auth = { "x-api-key": seed.key };
  let etag = "";
  let getIndex = 0;
  let slugIndex = 0;
  /** The slugs of `seed.sampleIds`, read once by ID (untimed) before the first by-slug request. */
  let samples: { id: string; slug: string }[] | undefined;
  const slugSamples = async () => {
    samples ??= await Promise.all(
      seed.sampleIds.map(async (id) => {
        const reply = expect(await api.call("GET", `/api/consumer/blogs/${id}`, auth), 200, "get");
        return { id, slug: (JSON.parse(reply.body) as { slug: string }).slug };
      }),
    );
    return samples;
  };
  let foreignIndex = 0;
  let changesToken = "";
  const bytes = { full: 0, fields: 0 };
  const deepCursor = listCursor.encode(
    { at: new Date(seed.deepPosition.at), id: seed.deepPosition.id },
    null,
  );
  const list = async (query: string, count: number, what: string) => {
    const reply = expect(await api.call("GET", `/api/consumer/blogs${query}`, auth), 200, what);
    const body = JSON.parse(reply.body) as ListBody;
    if (body.data.length !== Math.min(count, seed.workspaceReleased)) {
      throw new Error(`${what}: ${body.data.length} blogs`);
    }
    return reply;
  };
  return {
    etag: () => etag,
    useChangesToken: (token) => {
      changesToken = token;
    },
    bytes: () => ({ ...bytes }),
    list: async () => {
      const reply = await list("", 20, "list");
      etag = String(reply.headers.etag ?? "");
      return reply.ms;
    },
    deep: async () => {
      const reply = await list(`?cursor=${deepCursor}`, 20, "deep page");
      const body = JSON.parse(reply.body) as ListBody;
      const ids = body.data.map((b) => b.id).join();
      if (body.nextCursor !== null || ids !== seed.lastPageIds.join()) {
        throw new Error("deep page: not the last page of the list");
      }
      return reply.ms;
    },
    limit100: async () => {
      const reply = await list("?limit=100", 100, "limit=100");
      bytes.full = Buffer.byteLength(reply.body);
      return reply.ms;
    },
    fields100: async () => {
      const reply = await list("?limit=100&fields=id,slug,title", 100, "fields page");
      bytes.fields = Buffer.byteLength(reply.body);
      return reply.ms;
    },
    tag10: async () => {
      const reply = await api.call("GET", `/api/consumer/blogs?tag=${COMMON_TAG}`, auth);
      const body = JSON.parse(expect(reply, 200, "tag page").body) as ListBody;
      if (body.data.length === 0) throw new Error("tag page: no blog with the common tag");
      return reply.ms;
    },
    tag01: async () => {
      const reply = await api.call("GET", `/api/consumer/blogs?tag=${RARE_TAG}`, auth);
      return expect(reply, 200, "rare tag page").ms;
    },
    tags: async () => {
      const reply = await api.call("GET", "/api/consumer/tags", auth);
      const body = JSON.parse(expect(reply, 200, "tags").body) as { data: { tag: string }[] };
      if (!body.data.some((t) => t.tag === COMMON_TAG)) throw new Error("tags: no common tag");
      return reply.ms;
    },
    list304: async () => {
      if (etag === "") throw new Error("no ETag from the first page");
      const reply = await api.call("GET", "/api/consumer/blogs", {
        ...auth,
        "if-none-match": etag,
      });
      return expect(reply, 304, "list 304").ms;
    },
    get: async () => {
      const id = seed.sampleIds[getIndex++ % seed.sampleIds.length] ?? "";
      const reply = await api.call("GET", `/api/consumer/blogs/${id}`, auth);
      return expect(reply, 200, "get").ms;
    },
    bySlug: async () => {
      const all = await slugSamples();
      const sample = all[slugIndex++ % all.length];
      if (sample === undefined) throw new Error("by slug: no sample blogs");
      const reply = await api.call("GET", `/api/consumer/blogs/by-slug/${sample.slug}`, auth);
      const { id } = JSON.parse(expect(reply, 200, "by slug").body) as { id: string };
      if (id !== sample.id) throw new Error(`by slug: ${sample.slug} gave ${id}, not ${sample.id}`);
      return reply.ms;
    },
    changesIdle: async () => {
      if (changesToken === "") throw new Error("changes: no token");
      const reply = await api.call("GET", `/api/consumer/changes?since=${changesToken}`, auth);
      const body = JSON.parse(expect(reply, 200, "changes").body) as {
        changes: unknown[];
        hasMore: boolean;
      };
      if (body.changes.length !== 0 || body.hasMore) {
        throw new Error(`changes: not an empty page: ${reply.body.slice(0, 300)}`);
      }
      // The bound for an idle sync: a few hundred bytes.
      if (reply.body.length > 400) throw new Error(`changes: ${reply.body.length} bytes`);
      return reply.ms;
    },
    foreign404: async () => {
      const id = seed.foreignIds[foreignIndex++ % seed.foreignIds.length] ?? "";
      const reply = await api.call("GET", `/api/consumer/blogs/${id}`, auth);
      return expect(reply, 404, "foreign get").ms;
    },
  };
}

/** Signs in as the dashboard does; returns the create+release step. */
export async function adminStep(api: Client, base: string, seed: ScalingSeed): Promise<Step> {
  const origin = new URL(base).origin;
  const signIn = await api.call(
    "POST",
    "/api/admin/session",
    { origin },
    JSON.stringify({ email: seed.owner.email, password: seed.owner.password }),
  );
  expect(signIn, 200, "sign-in");
  const cookie = String(signIn.headers["set-cookie"]?.[0] ?? "").split(";")[0] ?? "";
  const headers = { origin, cookie };
  const random = prng(Date.now() % 2 ** 31);
  let n = 0;
  const blogs = `/api/admin/workspaces/${seed.workspace}/blogs`;
  return async () => {
    n += 1;
    const body = JSON.stringify({
      title: `Scaling bench post ${n} ${Math.floor(random() * 1e9)}`,
      bodyMarkdown: markdown2k(n, random),
      tags: ["bench"],
    });
    const created = expect(await api.call("POST", blogs, headers, body), 201, "create");
    const { id } = JSON.parse(created.body) as { id: string };
    const released = expect(
      await api.call("POST", `${blogs}/${id}/release`, { ...headers, ...ANY_VERSION }),
      200,
      "release",
    );
    return created.ms + released.ms;
  };
}
