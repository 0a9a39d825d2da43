/**
 * Before anything is measured, the three servers of bench/run.ts must answer the scenarios'
 * requests with the same content: a floor or a baseline that returned less (other blogs, fewer
 * fields, an empty page) would do less work and flatter the ratios. The bodies are compared
 * as JSON, except each page's `nextCursor`, whose encoding is each server's own (its presence
 * must agree).
 */
import { isDeepStrictEqual } from "node:util";
import type { Child } from "./measure.js";
import type { Workspace } from "./scenarios/scenario.js";
import { COMMON_TAG } from "./seed.js";

/** The requests compared: one of each kind the scenarios send. */
const paths = (w: Workspace): string[] => [
  `/api/consumer/blogs/${w.released[7]}`,
  `/api/consumer/blogs/by-slug/${encodeURIComponent(w.releasedSlugs[7] ?? "")}`,
  "/api/consumer/blogs?limit=20",
  "/api/consumer/blogs?limit=20&fields=id,slug,title",
  `/api/consumer/blogs?limit=20&tag=${encodeURIComponent(COMMON_TAG)}`,
  "/api/consumer/tags",
];

const content = (body: unknown): unknown => {
  if (typeof body !== "object" || body === null || !("nextCursor" in body)) return body;
  const { nextCursor, ...rest } = body as { nextCursor: unknown };
  return { ...rest, more: nextCursor !== null };
};

async function answer(server: Child, path: string, key: string): Promise<unknown> {
  const res = await fetch(`${server.url}${path}`, { headers: { "x-api-key": key } });
  if (res.status !== 200) throw new Error(`${server.name} answered ${path} with ${res.status}`);
  return content(await res.json());
}

/** Throws unless every server answers every request of `paths` alike. */
export async function checkSameAnswers(servers: readonly Child[], w: Workspace): Promise<void> {
  const key = w.keys[0] ?? "";
  const [first, ...others] = servers;
  if (first === undefined) return;
  for (const path of paths(w)) {
    const expected = await answer(first, path, key);
    for (const server of others) {
      if (!isDeepStrictEqual(await answer(server, path, key), expected)) {
        throw new Error(`${server.name} and ${first.name} answer ${path} differently`);
      }
    }
  }
}
