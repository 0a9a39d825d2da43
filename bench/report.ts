/** BENCHMARKS.md as bench/run.ts writes it (the latency chart: latency-svg.ts). */

export interface Measured {
  scenario: string;
  title: string;
  server: "pressroom" | "baseline" | "floor";
  requests: number;
  seconds: number;
  /** Measured windows summed into this result (rounds, interleaved with the other servers). */
  windows: number;
  reqPerSec: number;
  /** autocannon's latency percentiles in ms: p50, p99, p97_5, … */
  latency: Record<string, number>;
  /** The server process's own CPU per response. */
  cpuMicrosPerRequest: number;
  /** The database process's CPU per response (0 for the floor, whose database is in-process). */
  dbCpuMicrosPerRequest: number;
  /** Both: what a response cost the machine's cores, the load generator aside. */
  totalCpuMicrosPerRequest: number;
  /** CPU seconds of the server process per wall-clock second (1 = one core busy). */
  cpuShare: number;
  peakRssMB: number;
  bytesPerResponse: number;
  statuses: Record<string, number>;
  expectedOnly: boolean;
  lastUsedWritesPerKeyPerSec: number;
  blogDocsPerRequest: number;
}

export interface SyncRun {
  summary: string;
  requests: number;
  bytesToClient: number;
  bytesToServer: number;
  blogDocsRead: number;
  blogBodiesRead: number;
}

export interface Report {
  versions: Record<string, string>;
  setup: {
    /** Each scenario runs at least `durationS`, then until `minResponses`, at most `maxDurationS`. */
    durationS: number;
    minResponses: number;
    maxDurationS: number;
    /** Unmeasured load per scenario per server: at least `minSeconds` and `minResponses`. */
    warmup: { minSeconds: number; minResponses: number; maxSeconds: number };
    connections: number;
    /** Connections of the list scenarios, which wait on FerretDB's full scans. */
    dbBoundConnections: number;
    /** Windows per scenario per server, interleaved between the two servers. */
    rounds: number;
    keys: number;
    counts: { released: number; draft: number; removed: number };
    blogBytes: number;
    /** V8/node flags both servers ran with (those of `npm start`). */
    nodeFlags: string[];
  };
  results: Measured[];
  syncs: SyncRun[];
  elapsedS: number;
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "–";
const ms = (n: number | undefined) => (n === undefined ? "–" : n < 10 ? fmt(n, 1) : fmt(n));

/** Each scenario's floor, baseline and Pressroom results, in the order of `results`. */
export function pairs(results: Measured[]) {
  const scenarios = [...new Set(results.map((r) => r.scenario))];
  return scenarios.map((id) => {
    const of = (server: Measured["server"]) => {
      const r = results.find((m) => m.scenario === id && m.server === server);
      if (r === undefined) throw new Error(`missing ${server} result for ${id}`);
      return r;
    };
    const ours = of("pressroom");
    return { id, title: ours.title, floor: of("floor"), base: of("baseline"), ours };
  });
}

const cell = (b: number, p: number, show: (n: number) => string) =>
  `${show(b)} / ${show(p)} (${fmt(p / b, 2)}×)`;
/** floor / baseline / Pressroom (Pressroom ÷ floor). */
const cell3 = (f: number, b: number, p: number, show: (n: number) => string) =>
  `${show(f)} / ${show(b)} / ${show(p)} (${fmt(p / f, 2)}×)`;

export function renderMarkdownReport(report: Report): string {
  const { versions: v, setup } = report;
  const rows = pairs(report.results);
  const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
  const [first, second] = report.syncs;
  const maxWrites = Math.max(
    ...report.results
      .filter((r) => r.server === "pressroom")
      .map((r) => r.lastUsedWritesPerKeyPerSec),
  );
  const maxRss = Math.max(
    ...report.results.filter((r) => r.server === "pressroom").map((r) => r.peakRssMB),
  );
  const allExpected = report.results.every((r) => r.expectedOnly);
  const target = (ok: boolean) => (ok ? "✅ met" : "❌ **missed**");
  const ratio = (id: string, f: (m: Measured) => number) => {
    const r = byId[id];
    return r === undefined ? Number.NaN : f(r.ours) / f(r.base);
  };
  const toFloor = (id: string) => {
    const r = byId[id];
    return r === undefined
      ? Number.NaN
      : r.ours.totalCpuMicrosPerRequest / r.floor.totalCpuMicrosPerRequest;
  };
  const ofPage = (id: string) => {
    const r = byId[id];
    const page = byId.list;
    return r === undefined || page === undefined
      ? Number.NaN
      : r.ours.totalCpuMicrosPerRequest / page.ours.totalCpuMicrosPerRequest;
  };
  const floorTargets: [string, number, number][] = [
    ["list page of 20: total CPU ≤ 3× the floor's", toFloor("list"), 3],
    ["get by id: total CPU ≤ 2× the floor's", toFloor("get"), 2],
    ["get by slug: total CPU ≤ 2× the floor's", toFloor("get-slug"), 2],
    ["get 304: total CPU ≤ 1.5× the floor's", toFloor("get304"), 1.5],
    ["`fields=id,slug,title`: total CPU ≤ ¼ of the full page's", ofPage("fields"), 0.25],
    ["list 304: total CPU ≤ ¼ of the full page's", ofPage("list304"), 0.25],
  ];
  const cpuGet = ratio("get", (m) => m.cpuMicrosPerRequest);
  const cpuList = ratio("list", (m) => m.cpuMicrosPerRequest);
  const rpsGet = ratio("get", (m) => m.reqPerSec);
  const rpsList = ratio("list", (m) => m.reqPerSec);
  const syncShare = first && second ? second.bytesToClient / first.bytesToClient : Number.NaN;

  const lines = [
    "# Benchmarks",
    "",
    "Generated by `npm run bench` (`bench/run.ts`); do not edit by hand — rerun it.",
    "",
    `- **Date:** ${v.date}`,
    `- **Machine:** ${v.machine}`,
    `- **Versions:** Node ${v.node}, Express ${v.express}, express-openapi-validator ${v.validator}, mongodb driver ${v.mongodb}, FerretDB ${v.ferretdb} (embedded, SQLite), autocannon ${v.autocannon}; commit ${v.commit}`,
    `- **Data:** 2 workspaces × (${setup.counts.released} released, ${setup.counts.draft} draft, ${setup.counts.removed} removed) blogs, ~${fmt(setup.blogBytes / 1024, 1)} KB of markdown + HTML each; ${setup.keys} active keys and 1 revoked per workspace.`,
    `- **Load:** autocannon on loopback, ${setup.connections} connections (${setup.dbBoundConnections} for the list scenarios, which wait on the database), a warm-up of at least ${setup.warmup.minSeconds} s and ${setup.warmup.minResponses} responses (at most ${setup.warmup.maxSeconds} s) then ${setup.rounds} measured windows per scenario per server, interleaved (floor, baseline, Pressroom, then Pressroom, baseline, floor, …) so that a drift of the machine's speed falls on all alike, each of at least ${fmt(setup.durationS / setup.rounds, 1)} s and extended until the server has answered ${Math.ceil(setup.minResponses / setup.rounds)} requests but to at most ${fmt(setup.maxDurationS / setup.rounds, 1)} s (the sum of a server's windows is "window s" below; figures are over the sum), requests spread round-robin over the ${setup.keys} keys. The driver baseline and Pressroom reach the database through a counter of database work each (bench/db-counter.ts, a relay process). Load generator, the three servers, the counters and the database share the machine's cores.`,
    "- **Pressroom:** the real app (`createApp`), `NODE_ENV=production` (response validation off), `LOG_LEVEL=info` (one access-log line per request, to /dev/null).",
    "- **Driver baseline:** `bench/baseline-server.ts`, bare `node:http` through the MongoDB driver and the same database process: SHA-256 of the key, key lookup by `_id`, the same blog query, `JSON.stringify`, a body-hash ETag only for conditional requests. No framework, validation or logging.",
    "- **Floor:** `bench/floor-server.ts`, bare `node:http` reading the same rows from the database's SQLite file with `node:sqlite` in its own process, through the same indexes (each statement's plan checked at start: index searches only), `JSON.parse` of each row, `JSON.stringify`, the same ETag. No driver, no wire protocol, no database process.",
    `- **All three** run compiled JavaScript on plain node with the flags \`npm start\` uses: \`${setup.nodeFlags.join(" ") || "(none)"}\`.`,
    `- Whole run: ${fmt(report.elapsedS)} s.`,
    "",
    "## Results",
    "",
    "**What a request costs the machine.** Each cell is **floor / driver baseline / Pressroom (ratio Pressroom ÷ floor)**. Total CPU is the server process's CPU plus the database process's (`/proc`), over the measured windows, divided by the responses in them; the floor has no database process (SQLite runs in it), and the load generator and the db-counter relays are in none of them.",
    "",
    "| Scenario | req/s | p50 ms | p99 ms | total CPU µs / request | Pressroom: server + database µs |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      ({ title, floor, base, ours }) =>
        `| ${title} | ${cell3(floor.reqPerSec, base.reqPerSec, ours.reqPerSec, (n) => fmt(n))} | ${cell3(floor.latency.p50 ?? 0, base.latency.p50 ?? 0, ours.latency.p50 ?? 0, ms)} | ${cell3(floor.latency.p99 ?? 0, base.latency.p99 ?? 0, ours.latency.p99 ?? 0, ms)} | ${cell3(floor.totalCpuMicrosPerRequest, base.totalCpuMicrosPerRequest, ours.totalCpuMicrosPerRequest, (n) => fmt(n))} | ${fmt(ours.cpuMicrosPerRequest)} + ${fmt(ours.dbCpuMicrosPerRequest)} |`,
    ),
    "",
    "**The Node process alone**, against the driver baseline: each cell is **baseline / Pressroom (ratio Pressroom ÷ baseline)**. CPU is `process.cpuUsage()` (user + system) of the server's own process over the measured window divided by the responses in it — the database's and the load generator's CPU are not in it.",
    "",
    "| Scenario | req/s | p50 ms | p99 ms | CPU µs / request | peak RSS MB | bytes / response |",
    "|---|---|---|---|---|---|---|",
    ...rows.map(
      ({ title, base, ours }) =>
        `| ${title} | ${cell(base.reqPerSec, ours.reqPerSec, (n) => fmt(n))} | ${cell(base.latency.p50 ?? 0, ours.latency.p50 ?? 0, ms)} | ${cell(base.latency.p99 ?? 0, ours.latency.p99 ?? 0, ms)} | ${cell(base.cpuMicrosPerRequest, ours.cpuMicrosPerRequest, (n) => fmt(n))} | ${cell(base.peakRssMB, ours.peakRssMB, (n) => fmt(n))} | ${fmt(base.bytesPerResponse)} / ${fmt(ours.bytesPerResponse)} |`,
    ),
    "",
    "| Scenario (Pressroom) | window s | responses | statuses | server CPU (cores) | blog docs read / request | `lastUsedAt` writes / key / s |",
    "|---|---|---|---|---|---|---|",
    ...rows.map(
      ({ title, ours }) =>
        `| ${title} | ${fmt(ours.seconds, 1)} | ${fmt(ours.requests)} | ${Object.entries(
          ours.statuses,
        )
          .map(([c, n]) => `${c}: ${fmt(n)}`)
          .join(
            ", ",
          )} | ${fmt(ours.cpuShare, 2)} | ${fmt(ours.blogDocsPerRequest, 1)} | ${fmt(ours.lastUsedWritesPerKeyPerSec, 2)} |`,
    ),
    "",
    allExpected
      ? "Every response had the scenario's expected status."
      : "⚠️ Some responses had an unexpected status (see the statuses column).",
    "",
    "![Latency distributions](bench/latency.svg)",
    "",
    "## SDK sync (`sdk/examples/sync.ts`, page size 100, file-backed ETag cache)",
    "",
    "| Run | requests | bytes to client | bytes to server | blog documents read from the database | of them with bodies |",
    "|---|---|---|---|---|---|",
    ...report.syncs.map(
      (s, i) =>
        `| ${i === 0 ? "first (empty folder)" : "second (unchanged)"} | ${fmt(s.requests)} | ${fmt(s.bytesToClient)} | ${fmt(s.bytesToServer)} | ${fmt(s.blogDocsRead)} | ${fmt(s.blogBodiesRead)} |`,
    ),
    "",
    ...report.syncs.map((s) => `- \`${s.summary}\``),
    "",
    "## Targets",
    "",
    "| Target | Measured | |",
    "|---|---|---|",
    ...floorTargets.map(
      ([name, measured, limit]) =>
        `| ${name} | ${limit < 1 ? `${fmt(measured * 100, 0)} %` : `${fmt(measured, 2)}×`} | ${target(measured <= limit)} |`,
    ),
    `| CPU / request ≤ 1.5× baseline, get | ${fmt(cpuGet, 2)}× | ${target(cpuGet <= 1.5)} |`,
    `| CPU / request ≤ 1.5× baseline, list | ${fmt(cpuList, 2)}× | ${target(cpuList <= 1.5)} |`,
    `| req/s ≥ 0.8× baseline, get | ${fmt(rpsGet, 2)}× | ${target(rpsGet >= 0.8)} |`,
    `| req/s ≥ 0.8× baseline, list | ${fmt(rpsList, 2)}× | ${target(rpsList >= 0.8)} |`,
    `| \`lastUsedAt\` ≤ 1 write / key / s | ${fmt(maxWrites, 2)} (highest scenario) | ${target(maxWrites <= 1)} |`,
    `| unchanged sync ≤ 5 % of the first's bytes | ${fmt(syncShare * 100, 1)} % | ${target(syncShare <= 0.05)} |`,
    `| unchanged sync reads no blog bodies | ${second === undefined ? "–" : fmt(second.blogBodiesRead)} bodies | ${target(second?.blogBodiesRead === 0)} |`,
    `| RSS under load ≤ 150 MB | ${fmt(maxRss)} MB (highest scenario) | ${target(maxRss <= 150)} |`,
    "",
  ];
  return `${lines.join("\n")}\n${notes(setup)}`;
}

const notes = (setup: Report["setup"]) => `## Reading these figures

- **The database is FerretDB 1.24 on SQLite**, the embedded development database, with our
  patch (server/embedded-db/README.md): every query of these scenarios is an index search in
  SQLite, and a find that projects reads only its fields. What the database process still does
  per request, and the floor does not, is the wire protocol, FerretDB's decoding of each row
  into its own types and into BSON, and its Go filter and projection over the rows SQLite
  returned. The floor shows what this storage costs with none of that: the ratio to it is the
  room left (the targets above). On MongoDB the
  database is another machine's work; the figure that carries over is the Node process's CPU
  (the second table).
- **Pressroom's list scenarios ask the same page again and again**, so after the first answer
  they are sent from its answer cache (README, "Production"): a read of the page's validators
  (what its 304 reads), then the bytes kept under that ETag. So "list", the deep page and the
  tag pages cost about what "list 304" does, and a \`fields\` page or a 304 is no cheaper than
  the whole page asked again; the floor and the baseline read and serialise every page. The
  walk is not all misses either: its connections each go through every page in turn, close
  behind one another, so a page one of them was just sent is often still kept when the next
  asks (about half its answers were hits in a probe at 5,000 blogs). What a miss costs with the
  cache: \`npm run bench:answer-cache\`, whose walk is one lap shared by all connections.
- Load generator, the three Node servers and FerretDB share the same cores, so absolute req/s is
  lower than on a dedicated machine; compare the ratios.
- CPU per request: the server process's \`process.cpuUsage()\` from a quiet start (no request in
  flight) until every request autocannon sent is done, minus the process's idle rate (measured
  for 2 s before the load, a few seconds after start once startup work has finished), divided
  by the responses the server itself counted, summed over a server's ${setup.rounds} windows of
  the scenario; a window runs on until the server has answered ${setup.minResponses} requests
  in all (at most ${setup.maxDurationS} s; "window s" above). The database process's CPU is read
  from /proc/<pid>/stat (10 ms ticks; a window holds seconds of it) at the same instants, minus
  its own idle rate measured beside each idle server; no two servers' windows overlap, so the
  database's work in a window is the measured server's.
- Why interleaved windows: this machine's speed drifts (up to 2× between runs minutes apart,
  other VMs on the host); one window per server measured a minute apart put that drift into the
  ratio. Latency percentiles are over every response of the server's windows together.
- Peak RSS is the kernel's high-water mark of each server process (\`VmHWM\`, reset through
  /proc/self/clear_refs before each window), the highest over its windows; where /proc offers
  neither, RSS sampled every 50 ms.
- \`lastUsedAt\` writes are update statements on \`apiKeys\`, counted on their way to the
  database (bench/db-counter.ts, between each server and the database) from the start of each
  window until one flush interval (+200 ms) after its end, so the flush of a
  window's last uses is counted in it, divided by the keys used and by that same span (window
  plus wait): divided by the window alone, that last flush counted against a span it was not in.
- "Blog documents read" counts the documents the database returned to the server's
  \`find\`s on \`blogs\` (bench/db-counter.ts); "with bodies" those carrying \`bodyMarkdown\`.
  Why the counting is done outside the servers: the lab notes below.
`;
