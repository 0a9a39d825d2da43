/**
 * `npm run bench:render` (`npx tsx bench/render-isolation.ts [--seconds S] [--connections N]
 * [--no-build]`; `--help` lists them): does one tenant saving a pathological blog body slow down another tenant's
 * consumers? (README, "Fair sharing between tenants")
 *
 * Builds server/dist (`tsc -p server`, unless --no-build), starts a throwaway embedded database
 * and Pressroom on it as `npm start` runs it (compiled, NODE_ENV=production), seeds two tenants
 * through the admin API, then measures consumer GETs of one released blog (N closed-loop
 * connections, default 10) for S seconds (default 15) twice, in the same run: alone (the
 * baseline), and while the other tenant saves the slowest body the render tests generate
 * (test/support/pathological-markdown.ts), one save after another. Prints p50/p99/max and
 * requests per second of both windows, their ratios, and what the saves answered. Then the
 * admission of renders per workspace (README, "Production"): the readers' tenant saves small
 * blogs one after another for S seconds alone, then while the other tenant keeps `--flood`
 * (default 12) saves of that body going at once; the target is every save of the readers' tenant
 * succeeding, with a p99 at most 2× its p99 alone. Only the admin and consumer HTTP APIs are
 * used, so the same script measures older builds too.
 */
import { PATHOLOGICAL } from "../test/support/pathological-markdown.js";
import { type AdminCall, ANY_VERSION, adminClient, ok, percentile } from "./admin-client.js";
import { startHttpServerChild } from "./http-server-child.js";
import { optionsOrExit } from "./options.js";

const options = optionsOrExit({
  usage: "npm run bench:render -- [options]  (npx tsx bench/render-isolation.ts [options])",
  summary:
    "Consumer GETs of one blog alone, then while another tenant saves the slowest Markdown body\n" +
    "the render tests generate, in the same run; prints both windows and their ratios.",
  options: {
    seconds: { kind: "number", arg: "S", min: 1, help: "length of each window (15)" },
    connections: {
      kind: "number",
      arg: "N",
      min: 1,
      integer: true,
      help: "closed-loop consumer connections (10)",
    },
    flood: {
      kind: "number",
      arg: "N",
      min: 1,
      integer: true,
      help: "the other tenant's slow saves at once beside the saves window (12)",
    },
    "no-build": { kind: "flag", help: "run server/dist as it is (no tsc -p server first)" },
  },
});
const seconds = options.seconds ?? 15;
const connections = options.connections ?? 10;
const floodSize = options.flood ?? 12;
const WORST = "underscore emphasis (_a…)";
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Admin calls that must succeed — but a save: its 422s and 503s are what is measured. */
const strict =
  (admin: AdminCall): AdminCall =>
  async <T>(
    method: string,
    p: string,
    body?: unknown,
    headers?: Readonly<Record<string, string>>,
  ) => {
    const answer = await admin<T>(method, p, body, headers);
    if (method === "POST" && p.endsWith("/blogs")) return answer;
    return { ...answer, body: ok(`${method} ${p}`, answer) };
  };

async function consumerWindow(url: string, key: string) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        const res = await fetch(url, { headers: { "x-api-key": key } });
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    statuses: [...statuses].map(([s, n]) => `${n}×${s}`).join(" "),
  };
}

/** `save` one after another for the window; latencies and answers as `consumerWindow` gives. */
async function saveWindow(save: () => Promise<{ status: number }>) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const started = performance.now();
    const res = await save();
    latencies.push(performance.now() - started);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    statuses: [...statuses].map(([st, n]) => `${n}×${st}`).join(" "),
  };
}

async function main() {
  const server = await startHttpServerChild({
    name: "render",
    // The consumer windows measure latency, not the rate limit (1,200 per minute by default).
    env: { LOG_LEVEL: "warn", CONSUMER_RATE_LIMIT: "off" },
    build: !options["no-build"],
    log,
  });
  const { base } = server;
  try {
    const admin = strict(adminClient(base));
    type Me = { workspaces: { id: string }[] };
    const me = await admin<Me>("POST", "/setup", {
      name: "Bench Owner",
      email: "bench@example.com",
      password: "bench password 1",
      workspaceName: "Readers' tenant",
    });
    const readers = me.body.workspaces[0]?.id ?? "";
    const writer = (await admin<{ id: string }>("POST", "/workspaces", { name: "Writer" })).body.id;
    const key = (
      await admin<{ secret: string }>("POST", `/workspaces/${readers}/keys`, { name: "bench" })
    ).body.secret;
    const blog = (
      await admin<{ id: string }>("POST", `/workspaces/${readers}/blogs`, {
        title: "A released blog",
        bodyMarkdown: "Some *text*.\n\n".repeat(50),
      })
    ).body.id;
    await admin("POST", `/workspaces/${readers}/blogs/${blog}/release`, undefined, ANY_VERSION);
    const url = `${base}/api/consumer/blogs/${blog}`;

    log(`warm-up, then ${seconds} s alone and ${seconds} s beside saves of ${WORST}…`);
    await consumerWindow(url, key);
    const alone = await consumerWindow(url, key);
    const saves: { status: number; ms: number }[] = [];
    let saving = true;
    const saver = (async () => {
      while (saving) {
        const started = performance.now();
        const res = await admin("POST", `/workspaces/${writer}/blogs`, {
          title: "Pathological",
          bodyMarkdown: PATHOLOGICAL[WORST],
        });
        saves.push({ status: res.status, ms: performance.now() - started });
      }
    })();
    const beside = await consumerWindow(url, key);
    saving = false;
    await saver;

    let small = 0;
    log(`${seconds} s of saves alone and ${seconds} s beside ${floodSize} slow saves at once…`);
    const savesAlone = await saveWindow(() =>
      admin("POST", `/workspaces/${readers}/blogs`, {
        title: `Small ${++small}`,
        bodyMarkdown: "A *small* body.",
      }),
    );
    let flooding = true;
    const flood: number[] = [];
    const floods = Array.from({ length: floodSize }, async () => {
      while (flooding) {
        const res = await admin("POST", `/workspaces/${writer}/blogs`, {
          title: "Pathological",
          bodyMarkdown: PATHOLOGICAL[WORST],
        });
        flood.push(res.status);
        if (res.status === 503) await new Promise((r) => setTimeout(r, 100));
      }
    });
    const savesBeside = await saveWindow(() =>
      admin("POST", `/workspaces/${readers}/blogs`, {
        title: `Small ${++small}`,
        bodyMarkdown: "A *small* body.",
      }),
    );
    flooding = false;
    await Promise.all(floods);

    const ms = (n: number) => `${n.toFixed(1)} ms`;
    const row = (name: string, w: typeof alone) =>
      `| ${name} | ${w.rps.toFixed(0)} | ${ms(w.p50)} | ${ms(w.p99)} | ${ms(w.max)} | ${w.statuses} |`;
    console.log(
      [
        `consumer GET of one blog, ${connections} connections, ${seconds} s windows:`,
        "| window | req/s | p50 | p99 | max | answers |",
        "|---|---|---|---|---|---|",
        row("alone (baseline)", alone),
        row("beside another tenant's saves", beside),
        `p99 ratio ${(beside.p99 / alone.p99).toFixed(2)}×, req/s ratio ${(beside.rps / alone.rps).toFixed(2)}×`,
        `saves of ${WORST} (${PATHOLOGICAL[WORST]?.length} characters): ${saves.length}, ` +
          `answers ${[...new Set(saves.map((s) => s.status))].join(", ")}, ` +
          `longest ${ms(Math.max(...saves.map((s) => s.ms)))}`,
        "",
        `the readers' tenant's saves of a small blog, one at a time, ${seconds} s windows:`,
        "| window | saves/s | p50 | p99 | max | answers |",
        "|---|---|---|---|---|---|",
        row("alone (baseline)", savesAlone),
        row(`beside ${floodSize} slow saves of the other tenant at once`, savesBeside),
        `p99 ratio ${(savesBeside.p99 / savesAlone.p99).toFixed(2)}× (target ≤ 2×, every save 201); ` +
          `the other tenant's saves answered ${[...new Set(flood)].map((st) => `${flood.filter((f) => f === st).length}×${st}`).join(" ")}`,
      ].join("\n"),
    );
  } finally {
    await server.stop();
  }
}

await main();
