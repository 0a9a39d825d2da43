/**
 * A scenario of bench/run.ts: one kind of consumer request, measured on both servers
 * (bench/scenario-runner.ts). Each scenario is a file of this folder; index.ts lists them in the
 * order they run and the report shows them.
 */
import type { Child, Request } from "../measure.js";

/** What the requests are made of: workspace A of the seed (bench/seed.ts). */
export interface Workspace {
  keys: string[];
  /** Released blog ids, newest release first. */
  released: string[];
  /** Their slugs, in the same order. */
  releasedSlugs: string[];
}

export interface Scenario {
  /** Its name for `--only` and in the report's data. */
  id: string;
  title: string;
  /** The status every response should have. */
  expect: number;
  /**
   * Bound by the database: each FerretDB list query is a full scan of ~1–2 s, so it runs with
   * `--db-bound-connections` (1) rather than `--connections`.
   */
  dbBound: boolean;
  /** Requests cycled through by every connection, built per server (ETags differ). */
  requests(server: Child, workspace: Workspace): Promise<Request[]>;
}

/** Request `i`'s key: round-robin over the workspace's keys. */
export const keyHeader = (workspace: Workspace, i: number): Record<string, string> => ({
  "x-api-key": workspace.keys[i % workspace.keys.length] ?? "",
});

/** 100 released blogs spread over the whole list. */
export const spreadSample = (workspace: Workspace, of: readonly string[] = workspace.released) => {
  const step = Math.max(1, Math.floor(of.length / 100));
  return of.filter((_, i) => i % step === 0).slice(0, 100);
};

/** The ETag `url` answers with, asked with one that cannot match. */
export async function fetchEtag(url: string, key: string): Promise<string> {
  // The baseline computes an ETag only for conditional requests.
  const res = await fetch(url, { headers: { "x-api-key": key, "if-none-match": '"none"' } });
  await res.arrayBuffer();
  const etag = res.headers.get("etag");
  if (res.status !== 200 || etag === null) throw new Error(`no ETag from ${url} (${res.status})`);
  return etag;
}
