/**
 * The abusers of the fairness bench, one per shared resource: a client with no account sending
 * compressed, deeply nested JSON to the open admin routes (the body parser); tenant B's slowest
 * previews and saves (the render pool); tenant B's endpoints that never answer, fed with test
 * events and releases (the webhook delivery pool). Each runs until stopped, bounded in time by
 * its window, against loopback only, and says what it was answered.
 */
import { gzipSync } from "node:zlib";
import { PATHOLOGICAL } from "../../test/support/pathological-markdown.js";
import { ANY_VERSION } from "../admin-client.js";
import type { TenantB } from "./tenants.js";

export interface Abuse {
  readonly name: string;
  /** Starts abusing; `stop` ends it and resolves with what the abuser was answered. */
  start(base: string, b: TenantB): { stop(): Promise<string> };
}

const tally = () => {
  const counts = new Map<number | string, number>();
  return {
    add: (status: number | string) => counts.set(status, (counts.get(status) ?? 0) + 1),
    toString: () =>
      [...counts]
        .sort(([a], [b]) => String(a).localeCompare(String(b)))
        .map(([s, n]) => `${n}×${s}`)
        .join(" ") || "none",
  };
};

/**
 * Runs `senders` loops of `send` until stopped, each starting a send at most every `paceMs` (0:
 * back to back); a failed send (reset, refused) is counted.
 */
function loops(senders: number, send: () => Promise<number>, what: string, paceMs = 0) {
  const answers = tally();
  let running = true;
  const all = Array.from({ length: senders }, async () => {
    while (running) {
      const next = performance.now() + paceMs;
      answers.add(await send().catch(() => "network error"));
      const wait = next - performance.now();
      if (running && wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(all);
      return `${what}: ${answers}`;
    },
  };
}

/** 1.4 million nested `[`: 2.7 KB compressed. */
const NESTED_GZIP = gzipSync(Buffer.from("[".repeat(1_400_000)), { level: 9 });

export const noAccountBodies: Abuse = {
  name: "a client with no account: 4 senders of gzip-compressed nested JSON to POST /session",
  start: (base) =>
    loops(
      4,
      async () => {
        const res = await fetch(`${base}/api/admin/session`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "content-encoding": "gzip",
            origin: base,
          },
          body: NESTED_GZIP,
        });
        await res.arrayBuffer();
        return res.status;
      },
      `${NESTED_GZIP.length}-byte bodies answered`,
    ),
};

const SLOWEST = PATHOLOGICAL["underscore emphasis (_a…)"] ?? "";

export const tenantBRenders: Abuse = {
  name: "tenant B: 9 parallel previews and 2 parallel saves of the slowest Markdown body",
  start: (_base, b) => {
    const send = (p: string, body: unknown) => async () =>
      (await b.admin("POST", `/workspaces/${b.workspace}${p}`, body)).status;
    const previews = loops(9, send("/blogs/preview", { bodyMarkdown: SLOWEST }), "previews");
    const saves = loops(2, send("/blogs", { title: "Slow", bodyMarkdown: SLOWEST }), "saves");
    return { stop: async () => `${await previews.stop()}; ${await saves.stop()}` };
  },
};

export const tenantBWebhooks: Abuse = {
  name: "tenant B: 5 endpoints that never answer, 150 test events at once, then 5 a second, and a blog released again every second",
  start: (_base, b) => {
    const { admin, workspace, endpoints, blogs } = b;
    let n = 0;
    const test = async () => {
      const endpoint = endpoints[n++ % endpoints.length];
      return (await admin("POST", `/workspaces/${workspace}/webhooks/${endpoint}/test`)).status;
    };
    const burst = tally();
    const first = (async () => {
      for (let i = 0; i < 15; i++) {
        for (const s of await Promise.all(Array.from({ length: 10 }, test))) burst.add(s);
      }
    })();
    const more = loops(1, test, "further test events", 200);
    let m = 0;
    const flips = loops(
      1,
      async () => {
        const blog = blogs[m++ % blogs.length];
        const path = `/workspaces/${workspace}/blogs/${blog}`;
        const off = await admin("POST", `${path}/unrelease`, undefined, ANY_VERSION);
        if (off.status !== 200) return off.status;
        return (await admin("POST", `${path}/release`, undefined, ANY_VERSION)).status;
      },
      "unrelease + release",
      1000,
    );
    return {
      stop: async () => {
        await first;
        return `150 test events: ${burst}; ${await more.stop()}; ${await flips.stop()}`;
      },
    };
  },
};

/** The abusers by the names `--abusers` takes, in the order the bench runs them. */
export const ABUSES: Readonly<Record<string, Abuse>> = {
  bodies: noAccountBodies,
  renders: tenantBRenders,
  webhooks: tenantBWebhooks,
};
