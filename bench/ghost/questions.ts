/**
 * The questions of bench/ghost.ts, as each system is asked them (Ghost's Content API,
 * `/ghost/api/content/…?key=`; Pressroom's consumer API with `x-api-key`), each checked once
 * before any window: both answer the expected status, and the list pages name the same posts in
 * the same order (so both hold the same data and sort it alike). Then the report of a run.
 */
import http from "node:http";
import { type Pair, percentile, type Request, type Totals } from "./side-by-side.js";

export interface GhostShapes {
  readonly ghost: { url: string; key: string };
  readonly pressroom: { url: string; key: string; deepCursor: string };
  /** The read workspace's released blogs, oldest first (the posts Ghost was given). */
  readonly blogs: readonly { id: string; slug: string }[];
}

export interface SizeResult {
  size: number;
  pairs: readonly Pair[];
  totals: Map<string, Totals>;
  ghostSeedSeconds: number;
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

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The markdown tables of a run: one row per question and size, then the targets. */
export function reportOf(results: readonly SizeResult[]): string[] {
  const rows = [
    "| posts | question | Ghost req/s | Pressroom req/s | Pressroom ÷ Ghost | p50 ms, Ghost / Pressroom | CPU ms / request, Ghost / Pressroom (app + database) | KB / response, Ghost / Pressroom |",
    "|---|---|---:|---:|---:|---|---|---|",
  ];
  const targets = ["| posts | target | measured | |", "|---|---|---|---|"];
  const problems: string[] = [];
  for (const r of results) {
    for (const pair of r.pairs) {
      const t = (side: string) => r.totals.get(`${pair.id}/${side}`) as Totals;
      const [g, p] = [t("Ghost"), t("Pressroom")];
      const rate = (x: Totals) => x.responses / x.seconds;
      const ratio = rate(p) / rate(g);
      const cpu = (x: Totals) => x.cpu.reduce((a, b) => a + b, 0) / x.responses;
      // Pressroom's processes: the app, then its database.
      const split = p.cpu.map((ms) => (ms / p.responses).toFixed(1)).join(" + ");
      const kb = (x: Totals) => x.bytes / x.responses / 1024;
      rows.push(
        `| ${fmt(r.size)} | ${pair.title} | ${fmt(rate(g), 1)} | ${fmt(rate(p), 1)} | ${ratio.toFixed(2)}× | ${percentile(g.latencies, 50).toFixed(0)} / ${percentile(p.latencies, 50).toFixed(0)} | ${cpu(g).toFixed(1)} / ${cpu(p).toFixed(1)} (${split}) | ${kb(g).toFixed(1)} / ${kb(p).toFixed(1)} |`,
      );
      if (pair.target !== null && (r.size === 1000 || r.size === 5000)) {
        const met = ratio >= pair.target;
        targets.push(
          `| ${fmt(r.size)} | ${pair.title}: ≥ ${pair.target}× Ghost's req/s | ${ratio.toFixed(2)}× | ${met ? "✅ met" : "❌ **missed**"} |`,
        );
      }
      for (const [side, x] of [
        ["Ghost", g],
        ["Pressroom", p],
      ] as const) {
        if (x.unexpected.size > 0) {
          problems.push(
            `${r.size} ${pair.id} ${side}: unexpected statuses ${JSON.stringify([...x.unexpected])}`,
          );
        }
      }
    }
  }
  const seeding = results
    .map(
      (r) =>
        `${fmt(r.size)} posts published through Ghost's Admin API in ${fmt(r.ghostSeedSeconds)} s`,
    )
    .join("; ");
  return [
    ...rows,
    "",
    "Targets (issue: list and tag page ≥ 5× Ghost's req/s at 1,000 posts and ≥ 10× at 5,000, `fields` ≥ 3×):",
    "",
    ...targets,
    "",
    `Seeding: ${seeding}.`,
    problems.length === 0
      ? "Every answer had its question's status."
      : `**Answers with another status:** ${problems.join("; ")}.`,
  ];
}
