/**
 * The questions of bench/ghost.ts, as each system is asked them (Ghost's Content API,
 * `/ghost/api/content/…?key=`; Pressroom's consumer API with `x-api-key`), each checked once
 * before any window: both answer the expected status, and the list pages name the same posts in
 * the same order (so both hold the same data and sort it alike).
 */
import http from "node:http";
import type { Pair, Request } from "./side-by-side.js";

export interface GhostShapes {
  readonly ghost: { url: string; key: string };
  readonly pressroom: { url: string; key: string; deepCursor: string };
  /** The read workspace's released blogs, oldest first (the posts Ghost was given). */
  readonly blogs: readonly { id: string; slug: string }[];
}

/** A tag on 10 % of the seed's blogs (bench/seed.ts). */
const TAG = "weekly-digest";

/**
 * One GET with node:http, not fetch: fetch adds `Cache-Control: no-cache` to a request with
 * `If-None-Match` (the Fetch standard's "no-store" mode), and Express then never answers 304.
 */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; etag: string; text: string }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            etag: String(res.headers.etag ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

async function json(url: string, headers: Record<string, string> = {}) {
  const reply = await get(url, headers);
  if (reply.status !== 200) throw new Error(`${url}: ${reply.status} ${reply.text.slice(0, 200)}`);
  return { ...reply, body: JSON.parse(reply.text) as Record<string, unknown> };
}

const slugsOf = (items: unknown) => (items as { slug: string }[]).map((p) => p.slug).join(",");

/** The pairs, each answer checked once. */
export async function pairsOf(s: GhostShapes): Promise<Pair[]> {
  const g = (p: string, query = "") =>
    `/ghost/api/content/posts/${p}?key=${s.ghost.key}${query === "" ? "" : `&${query}`}`;
  const pKey = { "x-api-key": s.pressroom.key };
  const p = (rest: string) => `/api/consumer/blogs${rest}`;
  const posts = s.blogs.length;
  const listTarget = posts >= 5000 ? 10 : 5;

  // Same posts, same order: the first page, the fields page, the tag page and the last page.
  const same = async (what: string, ghostPath: string, pressroomPath: string) => {
    const ghost = await json(`${s.ghost.url}${ghostPath}`);
    const ours = await json(`${s.pressroom.url}${pressroomPath}`, pKey);
    const [a, b] = [slugsOf(ghost.body.posts), slugsOf(ours.body.data)];
    if (a !== b || a.split(",").length !== 20) {
      throw new Error(`${what}: Ghost and Pressroom answer different posts:\n${a}\n${b}`);
    }
    return { ghost, ours };
  };
  const list = await same("list", g("", "limit=20"), p("?limit=20"));
  await same("fields", g("", "limit=20&fields=id,slug,title"), p("?limit=20&fields=id,slug,title"));
  await same("tag", g("", `limit=20&filter=tag:${TAG}`), p(`?limit=20&tag=${TAG}`));
  const lastPage = posts / 20;
  await same(
    "last page",
    g("", `limit=20&page=${lastPage}`),
    p(`?limit=20&cursor=${s.pressroom.deepCursor}`),
  );

  // Ghost's ids of the same posts, by slug (its Content API answers at most 100 a page).
  const ghostIds = new Map<string, string>();
  for (let page = 1; ghostIds.size < posts; page++) {
    const { body } = await json(`${s.ghost.url}${g("", `limit=100&page=${page}&fields=id,slug`)}`);
    const got = body.posts as { id: string; slug: string }[];
    if (got.length === 0) throw new Error(`Ghost holds ${ghostIds.size} posts, not ${posts}`);
    for (const x of got) ghostIds.set(x.slug, x.id);
  }
  const sample = Array.from(
    { length: 100 },
    (_, k) => s.blogs[Math.floor((k * posts) / 100)],
  ).filter((b): b is { id: string; slug: string } => b !== undefined);
  const ghostIdOf = (slug: string) => {
    const id = ghostIds.get(slug);
    if (id === undefined) throw new Error(`Ghost has no post ${slug}`);
    return id;
  };

  const pairs: Pair[] = [
    {
      id: "list",
      title: "list, page of 20",
      expect: 200,
      target: listTarget,
      requests: {
        Ghost: [{ path: g("", "limit=20"), headers: {} }],
        Pressroom: [{ path: p("?limit=20"), headers: pKey }],
      },
    },
    {
      id: "fields",
      title: "list, `fields=id,slug,title`",
      expect: 200,
      target: 3,
      requests: {
        Ghost: [{ path: g("", "limit=20&fields=id,slug,title"), headers: {} }],
        Pressroom: [{ path: p("?limit=20&fields=id,slug,title"), headers: pKey }],
      },
    },
    {
      id: "tag",
      title: "tag page of 20 (a tag on 10 %)",
      expect: 200,
      target: listTarget,
      requests: {
        Ghost: [{ path: g("", `limit=20&filter=tag:${TAG}`), headers: {} }],
        Pressroom: [{ path: p(`?limit=20&tag=${TAG}`), headers: pKey }],
      },
    },
    {
      id: "list304",
      title: "list, matching `If-None-Match` (304)",
      expect: 304,
      target: null,
      requests: {
        Ghost: [{ path: g("", "limit=20"), headers: { "if-none-match": list.ghost.etag } }],
        Pressroom: [
          { path: p("?limit=20"), headers: { ...pKey, "if-none-match": list.ours.etag } },
        ],
      },
    },
    {
      id: "get",
      title: "one post by id",
      expect: 200,
      target: null,
      requests: {
        Ghost: sample.map((b) => ({ path: g(`${ghostIdOf(b.slug)}/`), headers: {} })),
        Pressroom: sample.map((b) => ({ path: p(`/${b.id}`), headers: pKey })),
      },
    },
    {
      id: "slug",
      title: "one post by slug",
      expect: 200,
      target: null,
      requests: {
        Ghost: sample.map((b) => ({ path: g(`slug/${b.slug}/`), headers: {} })),
        Pressroom: sample.map((b) => ({ path: p(`/by-slug/${b.slug}`), headers: pKey })),
      },
    },
    {
      id: "deep",
      title: "the last page of 20",
      expect: 200,
      target: null,
      requests: {
        Ghost: [{ path: g("", `limit=20&page=${lastPage}`), headers: {} }],
        Pressroom: [{ path: p(`?limit=20&cursor=${s.pressroom.deepCursor}`), headers: pKey }],
      },
    },
    {
      id: "401",
      title: "unknown key (401)",
      expect: 401,
      target: null,
      requests: {
        Ghost: [{ path: `/ghost/api/content/posts/?key=${"0".repeat(26)}&limit=20`, headers: {} }],
        Pressroom: [
          { path: p("?limit=20"), headers: { "x-api-key": `cp_live_${"0".repeat(32)}` } },
        ],
      },
    },
  ];
  // Every request of every pair answers as expected once before it is measured.
  for (const pair of pairs) {
    for (const [side, base] of [
      ["Ghost", s.ghost.url],
      ["Pressroom", s.pressroom.url],
    ] as const) {
      for (const r of (pair.requests[side] ?? []) as Request[]) {
        const reply = await get(`${base}${r.path}`, { ...r.headers });
        if (reply.status !== pair.expect) {
          throw new Error(
            `${pair.id}, ${side}: ${reply.status} (expected ${pair.expect}) ${r.path}`,
          );
        }
      }
    }
  }
  return pairs;
}
