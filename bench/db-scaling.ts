/**
 * `npm run bench:db` (`npx tsx bench/db-scaling.ts [--sizes 1000,10000,50000] [--only
 * patched|stock] [--stock-sizes 1000,10000] [--quick] [--samples N] [--warmup N]
 * [--stock-samples N] [--stock-warmup N] [--timeout S] [--seed-dir DIR] [--cold-build]
 * [--no-write] [--write]`); `npm run bench` runs it after bench/run.ts.
 *
 * How the embedded database scales, stock FerretDB against our patched one (exact pushdown of
 * filters, sorts and limits to SQLite: server/embedded-db/README.md), over HTTP through the whole
 * app, at each size of `--sizes` released blogs (default 1,000, 10,000 and 50,000; `--quick`:
 * 1,000 and 5,000 with few samples, printed only unless `--write`). `--stock-sizes` limits stock
 * FerretDB to some of the sizes (at 50,000 blogs its run takes many minutes).
 *
 * Per size, the data (bench/scaling-seed.ts: two workspaces, ~2 KB markdown bodies) is seeded
 * once with the driver into a fresh data directory, through our launcher (after the app's
 * `ensureIndexes`), and copied for each variant, so both start from the same SQLite files. Then,
 * per variant, the launcher binary (server/embedded-db/bin/pressroom-db, built if needed) is
 * started on the copy, `-exact-pushdown=false` for stock, and the app as production runs it:
 * `node <the V8 flags of npm start> server/bin/pressroom.js start` (compiled server/dist, built
 * first with `tsc -p server`), NODE_ENV=production, MONGODB_URI pointing at the launcher,
 * DB_TIMEOUT_MS=120000 (a stock list at 50,000 blogs takes longer than the default 5 s). Requests
 * go one at a time over one keep-alive connection:
 *
 *  - first, one request of each kind right after both processes started ("first"): nothing is
 *    warm in either process (the OS file cache is: the files were just copied);
 *  - then, per kind, `--warmup` unmeasured requests and `--samples` measured ones (stock:
 *    `--stock-warmup`, `--stock-samples`, as a stock list at 50,000 blogs takes many seconds);
 *  - peak RSS (VmHWM of /proc/PID/status, since the process started) of the launcher and of
 *    the app after the read requests ("while serving lists"), and again at the end;
 *  - the database alone restarted on the same port (the app stays up, warm, and waits for its
 *    `/readyz`), and the first read of each kind timed again: the app's own first-request cost
 *    (loading its OpenAPI validator, ~1 s) is then out of the figure, the database's is in;
 *  - create + release last (it adds blogs): sign in as the dashboard does (session cookie,
 *    Origin), POST a blog (~2 KB markdown), POST its /release; the figure is both together.
 *
 * Figures are printed as markdown tables with the issue's targets (PASS/MISS, figures only: this
 * is a benchmark, not a test) and, unless --quick or --no-write, written into BENCHMARKS.md
 * between `<!-- db-scaling:start -->` and `<!-- db-scaling:end -->` (bench/run.ts keeps that
 * section when it rewrites the file). `--seed-dir DIR` keeps the seeded data in DIR/<size>/ and
 * reuses it on later runs. `--cold-build` also times a cold build of the launcher (empty
 * GOMODCACHE and GOCACHE, from a `git worktree` of HEAD so that .ferretdb/ of this checkout is
 * not touched): prepare-ferretdb.mjs, then go build.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import { encodeCursor } from "../server/src/blogs/cursor.js";
import { ensureIndexes } from "../server/src/db/collections.js";
import { ensureEmbeddedDbBinary } from "../server/src/db/embedded.js";
import { DB_SCALING, readOrEmpty, withSection } from "./benchmarks-section.js";
import { markdown2k, prng, type ScalingSeed, SEED_FORMAT, seedScaling } from "./scaling-seed.js";
import { NODE_FLAGS } from "./start-flags.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DB_NAME = "pressroom_scaling";

// --- options ---------------------------------------------------------------------------------

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const stringOption = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const numberOption = (name: string, fallback: number): number => {
  const raw = stringOption(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} takes a number (got ${raw})`);
  return n;
};
const quick = flag("--quick");
const SIZES = (stringOption("--sizes") ?? (quick ? "1000,5000" : "1000,10000,50000"))
  .split(",")
  .map((s) => Number(s.replaceAll("_", "")))
  .sort((a, b) => a - b);
if (SIZES.some((n) => !Number.isInteger(n) || n < 42)) {
  throw new Error("--sizes takes whole numbers of released blogs, each at least 42");
}
type Variant = "stock" | "patched";
const only = stringOption("--only");
if (only !== undefined && only !== "stock" && only !== "patched") {
  throw new Error(`--only takes patched or stock (got ${only})`);
}
const VARIANTS: Variant[] = only === undefined ? ["patched", "stock"] : [only];
/** The sizes stock FerretDB is measured at (default: all); a stock run at 50,000 takes long. */
const STOCK_SIZES = stringOption("--stock-sizes")
  ?.split(",")
  .map((s) => Number(s.replaceAll("_", "")));
const PLAN: Record<Variant, { warmup: number; samples: number }> = {
  patched: {
    warmup: numberOption("--warmup", quick ? 1 : 3),
    samples: Math.max(1, numberOption("--samples", quick ? 10 : 40)),
  },
  stock: {
    warmup: numberOption("--stock-warmup", 1),
    samples: Math.max(1, numberOption("--stock-samples", quick ? 3 : 5)),
  },
};
const TIMEOUT_MS = numberOption("--timeout", 120) * 1000;
const SEED_DIR = stringOption("--seed-dir");
const COLD_BUILD = flag("--cold-build");
const WRITE = quick ? flag("--write") : !flag("--no-write");

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- processes -------------------------------------------------------------------------------

/** Everything started here, killed if this process ends early. */
const running = new Set<ChildProcess>();
const killAll = () => {
  for (const child of running) child.kill("SIGKILL");
};
process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

interface Proc {
  pid: number;
  stop(): Promise<void>;
}

function track(child: ChildProcess, name: string): Proc {
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => running.delete(child));
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${name} did not start`);
  return {
    pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the first line of `child`'s stdout that `pick` accepts; then drains the rest. */
function lineOf<T>(
  child: ChildProcess,
  name: string,
  pick: (line: string) => T | undefined,
  tail: string[],
): Promise<T> {
  const stdout = child.stdout;
  if (stdout === null) throw new Error(`${name}: no stdout`);
  const lines = createInterface({ input: stdout });
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => fail("gave no address within 120 s"), 120_000);
    function fail(why: string) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`${name} ${why}. Last lines:\n${tail.join("\n")}`));
    }
    child.once("exit", (code, signal) => fail(`exited (${signal ?? `code ${code}`})`));
    lines.on("line", (line) => {
      if (done) return;
      tail.push(line);
      if (tail.length > 30) tail.shift();
      const value = pick(line);
      if (value === undefined) return;
      done = true;
      clearTimeout(timer);
      resolve(value);
    });
  });
}

function keepTail(child: ChildProcess, tail: string[]): void {
  if (child.stderr === null) return;
  createInterface({ input: child.stderr }).on("line", (line) => {
    tail.push(line);
    if (tail.length > 30) tail.shift();
  });
}

/** The launcher binary on `dataDir`; `stock`: FerretDB's own query path. */
async function startLauncher(
  bin: string,
  dataDir: string,
  stock: boolean,
  port = "0",
): Promise<Proc & { uri: string }> {
  const flags = ["-listen", `127.0.0.1:${port}`, "-data-dir", dataDir, "-exit-on-stdin-close"];
  if (stock) flags.push("-exact-pushdown=false");
  const child = spawn(bin, flags, { stdio: ["pipe", "pipe", "pipe"] });
  const proc = track(child, "launcher");
  const tail: string[] = [];
  keepTail(child, tail);
  const uri = await lineOf(
    child,
    "the embedded database",
    (line) => {
      try {
        const { uri } = JSON.parse(line) as { uri?: unknown };
        return typeof uri === "string" ? uri : undefined;
      } catch {
        return undefined;
      }
    },
    tail,
  );
  return { ...proc, uri };
}

/** The app as `npm start` runs it, on `uri`; resolves once it listens. */
async function startApp(uri: string): Promise<Proc & { url: string }> {
  const child = spawn(process.execPath, [...NODE_FLAGS, "server/bin/pressroom.js", "start"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      MONGODB_URI: uri,
      MONGODB_DB: DB_NAME,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      DB_TIMEOUT_MS: "120000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = track(child, "app");
  const tail: string[] = [];
  keepTail(child, tail);
  const url = await lineOf(
    child,
    "the app",
    (line) => {
      try {
        const { url } = JSON.parse(line) as { url?: unknown };
        return typeof url === "string" ? url : undefined;
      } catch {
        return undefined;
      }
    },
    tail,
  );
  // Its access log (one JSON line per request) is read and dropped from here on.
  return { ...proc, url };
}

/** `VmHWM` (peak resident set since the process started) and `VmRSS` of `pid`, in bytes. */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kB = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
  return { peak: kB("VmHWM"), now: kB("VmRSS") };
}

// --- HTTP ------------------------------------------------------------------------------------

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

function client(base: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(base);
  const call = (
    method: string,
    pathname: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<Reply> =>
    new Promise<Reply>((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        {
          agent,
          host: hostname,
          port,
          method,
          path: pathname,
          headers:
            body === undefined ? headers : { ...headers, "content-type": "application/json" },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString("utf8"),
              ms: performance.now() - started,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { call, close: () => agent.destroy() };
}
type Client = ReturnType<typeof client>;

// --- measures --------------------------------------------------------------------------------

type MeasureId = "list" | "deep" | "limit100" | "list304" | "get" | "foreign404" | "create";

interface MeasureDef {
  id: MeasureId;
  title: string;
  /** Target at 10,000 blogs, patched (ms), for the p50 and the first requests; null: none. */
  target: number | null;
}

const MEASURES: MeasureDef[] = [
  { id: "list", title: "list, first page (limit 20)", target: 15 },
  { id: "deep", title: "list, deep cursor page (the oldest 20)", target: 15 },
  { id: "limit100", title: "list, `limit=100`", target: 50 },
  { id: "list304", title: "list, `If-None-Match` (304)", target: 10 },
  { id: "get", title: "get one blog", target: 5 },
  { id: "foreign404", title: "get another workspace's blog (404)", target: null },
  { id: "create", title: "create + release (admin API)", target: 20 },
];

interface Figures {
  /** Successful samples, ms. */
  times: number[];
  failures: string[];
  /** The first request of its kind after both processes started. */
  first: number | null;
  /** The first after the database alone was restarted, the app staying up (reads only). */
  firstAfterDbRestart: number | null;
}

interface VariantResult {
  variant: Variant;
  size: number;
  measures: Record<MeasureId, Figures>;
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
type Step = () => Promise<number>;

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

function consumerSteps(
  api: Client,
  seed: ScalingSeed,
): Record<Exclude<MeasureId, "create">, Step> & {
  etag: () => string;
} {
  const auth = { "x-api-key": seed.key };
  let etag = "";
  let getIndex = 0;
  let foreignIndex = 0;
  const deepCursor = encodeCursor({ at: new Date(seed.deepPosition.at), id: seed.deepPosition.id });
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
    limit100: async () => (await list("?limit=100", 100, "limit=100")).ms,
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
    foreign404: async () => {
      const id = seed.foreignIds[foreignIndex++ % seed.foreignIds.length] ?? "";
      const reply = await api.call("GET", `/api/consumer/blogs/${id}`, auth);
      return expect(reply, 404, "foreign get").ms;
    },
  };
}

/** Signs in as the dashboard does; returns the create+release step. */
async function adminStep(api: Client, base: string, seed: ScalingSeed): Promise<Step> {
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
      await api.call("POST", `${blogs}/${id}/release`, headers),
      200,
      "release",
    );
    return created.ms + released.ms;
  };
}

const emptyFigures = (): Figures => ({
  times: [],
  failures: [],
  first: null,
  firstAfterDbRestart: null,
});
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function first(
  step: Step,
  figures: Figures,
  which: "first" | "firstAfterDbRestart" = "first",
): Promise<void> {
  try {
    figures[which] = await step();
  } catch (err) {
    figures.failures.push(
      `${which === "first" ? "first" : "first after restart"}: ${message(err)}`,
    );
  }
}

/** The port of a `mongodb://host:port/` URI. */
const portOf = (uri: string): string => {
  const port = /:(\d+)\/?$/.exec(uri)?.[1];
  if (port === undefined) throw new Error(`no port in ${uri}`);
  return port;
};

/** Waits until the app's `GET /readyz` answers 200 (its driver reached the database). */
async function ready(api: Client): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const reply = await api.call("GET", "/readyz").catch(() => null);
    if (reply?.status === 200) return;
    if (Date.now() > deadline) throw new Error("the app did not reach the restarted database");
    await sleep(100);
  }
}

async function sample(
  step: Step,
  figures: Figures,
  plan: { warmup: number; samples: number },
  label: string,
): Promise<void> {
  for (let i = 0; i < plan.warmup + plan.samples; i++) {
    try {
      const ms = await step();
      if (i >= plan.warmup) figures.times.push(ms);
    } catch (err) {
      figures.failures.push(message(err));
      log(`    ${label}: ${message(err)}`);
      // A failure in every warm-up and the first sample: give up on this measure.
      if (figures.times.length === 0 && figures.failures.length > plan.warmup + 1) return;
    }
  }
}

async function measureVariant(
  bin: string,
  dataDir: string,
  variant: Variant,
  seed: ScalingSeed,
): Promise<VariantResult> {
  const started = Date.now();
  const load = { start: os.loadavg(), end: [] as number[] };
  const plan = PLAN[variant];
  let db = await startLauncher(bin, dataDir, variant === "stock");
  let app: (Proc & { url: string }) | undefined;
  let api: Client | undefined;
  try {
    app = await startApp(db.uri);
    api = client(app.url);
    const measures = Object.fromEntries(MEASURES.map((m) => [m.id, emptyFigures()])) as Record<
      MeasureId,
      Figures
    >;
    const steps = consumerSteps(api, seed);
    const reads = ["list", "deep", "limit100", "list304", "get", "foreign404"] as const;
    // The first request of each kind after both processes started.
    for (const id of reads) await first(steps[id], measures[id]);
    for (const id of reads) {
      log(`  ${variant} ${id}: ${plan.warmup} warm-up + ${plan.samples} requests…`);
      await sample(steps[id], measures[id], plan, `${variant} ${id}`);
    }
    const dbLists = memoryOf(db.pid).peak;
    const appLists = memoryOf(app.pid).peak;
    // The database alone restarted (same port), the app warm: its first reads again.
    log(`  ${variant}: restarting the database alone…`);
    await db.stop();
    db = await startLauncher(bin, dataDir, variant === "stock", portOf(db.uri));
    await ready(api);
    for (const id of reads) await first(steps[id], measures[id], "firstAfterDbRestart");
    log(`  ${variant} create+release: sign-in, then 1 + ${plan.warmup} + ${plan.samples}…`);
    try {
      const create = await adminStep(api, app.url, seed);
      await first(create, measures.create);
      await sample(create, measures.create, plan, `${variant} create`);
    } catch (err) {
      measures.create.failures.push(message(err));
    }
    const rss = {
      dbLists,
      appLists,
      dbEnd: memoryOf(db.pid).peak,
      appEnd: memoryOf(app.pid).peak,
    };
    load.end = os.loadavg();
    return {
      variant,
      size: seed.released,
      measures,
      rss,
      load,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    api?.close();
    await app?.stop();
    await db.stop();
  }
}

// --- seeding ---------------------------------------------------------------------------------

/** Seeds `size` released blogs into `dir`/data (or reuses a kept seed there). */
async function seeded(bin: string, dir: string, size: number): Promise<ScalingSeed> {
  const manifest = path.join(dir, "seed.json");
  if (existsSync(manifest)) {
    const kept = JSON.parse(await readFile(manifest, "utf8")) as ScalingSeed;
    if (kept.format === SEED_FORMAT && kept.released === size) {
      log(`Reusing the seed of ${size} released blogs in ${dir}`);
      return kept;
    }
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const started = Date.now();
  log(`Seeding ${size.toLocaleString("en")} released blogs into ${dir}…`);
  const db = await startLauncher(bin, path.join(dir, "data"), false);
  try {
    const mongo = new MongoClient(db.uri);
    await mongo.connect();
    try {
      const database = mongo.db(DB_NAME);
      await ensureIndexes(database);
      const seed = await seedScaling(database, size, log);
      // The launcher adds its indexes for new collections within a second (-id-index-interval).
      await sleep(2500);
      await writeFile(manifest, JSON.stringify(seed));
      log(
        `  seeded ${seed.totalBlogs} blogs (${size} released) in ${Math.round((Date.now() - started) / 1000)} s`,
      );
      return seed;
    } finally {
      await mongo.close();
    }
  } finally {
    await db.stop();
  }
}

// --- cold build ------------------------------------------------------------------------------

interface ColdBuild {
  prepareS: number;
  buildS: number;
}

function timed(command: string, argv: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
    running.add(child);
    const tail: string[] = [];
    let packages = 0;
    keepTail(child, tail);
    child.stderr?.on("data", (chunk: Buffer) => {
      packages += chunk.toString().split("\n").length - 1;
    });
    const ticker = setInterval(() => {
      const s = Math.round((performance.now() - started) / 1000);
      log(`  … ${s} s: ${command} ${argv[0] ?? ""} (${packages} lines of progress)`);
    }, 15_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearInterval(ticker);
      running.delete(child);
      if (code === 0) resolve((performance.now() - started) / 1000);
      else reject(new Error(`${command} ${argv.join(" ")} exited ${code}:\n${tail.join("\n")}`));
    });
  });
}

async function coldBuild(): Promise<ColdBuild> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), "pressroom-coldbuild-"));
  const tree = path.join(tmp, "src");
  log(`Cold build of the launcher: git worktree of HEAD in ${tree}, empty GOMODCACHE and GOCACHE…`);
  execFileSync("git", ["worktree", "add", "--detach", tree, "HEAD"], {
    cwd: ROOT,
    stdio: "ignore",
  });
  try {
    const env = {
      ...process.env,
      GOMODCACHE: path.join(tmp, "gomodcache"),
      GOCACHE: path.join(tmp, "gocache"),
      GOTOOLCHAIN: "local",
    };
    const dir = path.join(tree, "server", "embedded-db");
    const prepareS = await timed(process.execPath, ["prepare-ferretdb.mjs"], dir, env);
    log(`  prepare-ferretdb.mjs: ${prepareS.toFixed(1)} s`);
    const out = path.join(tmp, "pressroom-db");
    const buildS = await timed(
      "go",
      ["build", "-v", "-trimpath", "-mod=readonly", "-buildvcs=false", "-o", out, "."],
      dir,
      env,
    );
    log(`  go build: ${buildS.toFixed(1)} s`);
    return { prepareS, buildS };
  } finally {
    execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: ROOT, stdio: "ignore" });
    // The module cache is read-only, as Go makes it.
    execFileSync("chmod", ["-R", "u+w", tmp], { stdio: "ignore" });
    await rm(tmp, { recursive: true, force: true });
  }
}

// --- report ----------------------------------------------------------------------------------

/** Nearest-rank percentile of sorted `xs`. */
const percentile = (xs: number[], p: number) =>
  xs.length === 0 ? null : (xs[Math.max(0, Math.ceil(p * xs.length) - 1)] ?? null);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** A time for a table whose header says "ms": ms below 1 s, "1.23 s" above. */
const ms = (x: number | null) =>
  x === null
    ? "—"
    : x >= 1000
      ? `${(x / 1000).toFixed(2)} s`
      : x >= 100
        ? x.toFixed(0)
        : x.toFixed(1);
/** A time with its unit. */
const time = (x: number | null) => (x === null || x >= 1000 ? ms(x) : `${ms(x)} ms`);
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)}`;
const p50 = (f: Figures | undefined) => (f === undefined ? null : percentile(sorted(f.times), 0.5));
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
const loadText = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");

function sizeTable(size: number, results: VariantResult[]): string {
  const stock = results.find((r) => r.size === size && r.variant === "stock");
  const patched = results.find((r) => r.size === size && r.variant === "patched");
  const lines = [
    `### ${size.toLocaleString("en")} released blogs`,
    "",
    "| Measure (ms) | stock p50 | first after start | after db restart | n | patched p50 | p90 | max | first after start | after db restart | n |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const n = (f: Figures | undefined) =>
    f === undefined
      ? "—"
      : `${f.times.length}${f.failures.length > 0 ? ` (${f.failures.length} failed)` : ""}`;
  const reads = (m: MeasureDef, x: number | null) => (m.id === "create" ? "—" : ms(x));
  for (const m of MEASURES) {
    const s = stock?.measures[m.id];
    const p = patched?.measures[m.id];
    const ps = sorted(p?.times ?? []);
    lines.push(
      `| ${m.title} | ${ms(p50(s))} | ${ms(s?.first ?? null)} | ${reads(m, s?.firstAfterDbRestart ?? null)} | ${n(s)} | ${ms(percentile(ps, 0.5))} | ${ms(percentile(ps, 0.9))} | ${ms(ps.at(-1) ?? null)} | ${ms(p?.first ?? null)} | ${reads(m, p?.firstAfterDbRestart ?? null)} | ${n(p)} |`,
    );
  }
  const rss = (r: VariantResult | undefined, pick: (x: VariantResult["rss"]) => number) =>
    r === undefined ? "—" : mb(pick(r.rss));
  lines.push(
    "",
    "| Peak RSS (VmHWM, MB) | stock | patched |",
    "|---|---|---|",
    `| embedded database (launcher), serving lists (from its start to the end of the reads) | ${rss(stock, (x) => x.dbLists)} | ${rss(patched, (x) => x.dbLists)} |`,
    `| app server, same span | ${rss(stock, (x) => x.appLists)} | ${rss(patched, (x) => x.appLists)} |`,
    `| embedded database after its restart, at the end (first reads, create + release) | ${rss(stock, (x) => x.dbEnd)} | ${rss(patched, (x) => x.dbEnd)} |`,
    `| app server, at the end | ${rss(stock, (x) => x.appEnd)} | ${rss(patched, (x) => x.appEnd)} |`,
    "",
    ...results
      .filter((r) => r.size === size)
      .map(
        (r) =>
          `${r.variant}: ${r.seconds.toFixed(0)} s; load average (1/5/15 min) ${loadText(r.load.start)} at start, ${loadText(r.load.end)} at end.`,
      ),
  );
  const failures = results
    .filter((r) => r.size === size)
    .flatMap((r) =>
      MEASURES.flatMap((m) => {
        const f = r.measures[m.id];
        return f.failures.length === 0
          ? []
          : [`- ${r.variant} ${m.id}: ${f.failures.length} failed, first: ${f.failures[0]}`];
      }),
    );
  if (failures.length > 0) lines.push("", "Failures:", ...failures);
  return lines.join("\n");
}

function targetsTable(results: VariantResult[], cold: ColdBuild | null): string {
  const at = (size: number) => results.find((r) => r.size === size && r.variant === "patched");
  const base = at(10_000);
  const big = at(50_000);
  const check = (value: number | null, limit: number | null) =>
    value === null
      ? "not measured"
      : limit === null
        ? time(value)
        : `${time(value)} ${verdict(value <= limit)}`;
  const rows: string[] = [
    "| Patched | target at 10,000 | p50 at 10,000 | first after start | first after db restart | p50 at 50,000 (≤ 1.5 × at 10,000) |",
    "|---|---|---|---|---|---|",
  ];
  for (const m of MEASURES) {
    const f = base?.measures[m.id];
    const small = p50(f);
    const large = p50(big?.measures[m.id]);
    const ratio =
      small === null || large === null
        ? "not measured"
        : `${time(large)} = ${(large / small).toFixed(2)}× ${verdict(large / small <= 1.5)}`;
    rows.push(
      `| ${m.title} | ${m.target === null ? "—" : `≤ ${m.target} ms`} | ${check(small, m.target)} | ${check(f?.first ?? null, m.target)} | ${m.id === "create" ? "—" : check(f?.firstAfterDbRestart ?? null, m.target)} | ${ratio} |`,
    );
  }
  const peak = big?.rss.dbLists;
  const total = cold === null ? null : cold.prepareS + cold.buildS;
  rows.push(
    "",
    "| Other targets | figure | result |",
    "|---|---|---|",
    `| embedded database peak RSS at 50,000 (patched), serving lists, ≤ 150 MB | ${peak === undefined ? "not measured" : `${mb(peak)} MB`} | ${peak === undefined ? "—" : verdict(peak <= 150 * 2 ** 20)} |`,
    `| cold build of the launcher (empty module and build caches) ≤ 180 s | ${cold === null || total === null ? "not measured (--cold-build)" : `${total.toFixed(0)} s (prepare-ferretdb.mjs ${cold.prepareS.toFixed(1)} s + go build ${cold.buildS.toFixed(0)} s)`} | ${total === null ? "—" : verdict(total <= 180)} |`,
  );
  return rows.join("\n");
}

function git(...a: string[]): string {
  try {
    return execFileSync("git", a, { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

function report(
  results: VariantResult[],
  seeds: ScalingSeed[],
  cold: ColdBuild | null,
  load: { start: number[]; end: number[] },
  elapsedS: number,
): string {
  const cpus = os.cpus();
  const dirty =
    git("status", "--porcelain", "server", "bench") === "" ? "" : " + uncommitted changes";
  const seedLine = seeds
    .map(
      (s) =>
        `${s.released.toLocaleString("en")} released (${s.totalBlogs.toLocaleString("en")} blogs in all, markdown ${s.markdownBytes} B on average)`,
    )
    .join("; ");
  return [
    "## Embedded database scaling: stock vs patched FerretDB",
    "",
    "Generated by `npm run bench:db` (`bench/db-scaling.ts`, which `npm run bench` runs after `bench/run.ts`); do not edit by hand — rerun it.",
    "",
    `- **Date:** ${new Date().toISOString()}; commit ${git("rev-parse", "--short", "HEAD")}${dirty}; command \`${["tsx bench/db-scaling.ts", ...args].join(" ")}\`; whole run ${elapsedS.toFixed(0)} s.`,
    `- **Machine:** ${cpus[0]?.model ?? "unknown CPU"} × ${cpus.length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}; Node ${process.version}. Load average (1/5/15 min) ${loadText(load.start)} at the start, ${loadText(load.end)} at the end: other work shared the machine.`,
    `- **Data:** per size, two workspaces with half the released blogs each, plus 2 drafts and 1 removed blog per 22 released, ~2 KB markdown bodies rendered by the app's renderer (bench/scaling-seed.ts): ${seedLine}. Seeded with the driver after the app's \`ensureIndexes\`, once per size; each variant starts on its own copy of the same SQLite files.`,
    "- **Variants:** the launcher (server/embedded-db/bin/pressroom-db) with `-exact-pushdown=false` (stock FerretDB 1.24.2 query path) and without (patched); the app as `npm start` runs it (compiled, `NODE_ENV=production`, its V8 flags, `LOG_LEVEL=info`, `DB_TIMEOUT_MS=120000`).",
    `- **Requests:** over HTTP on loopback, one at a time on one keep-alive connection, with workspace A's key; the deep page's cursor points 21 blogs before the end of the list (the page holds the oldest 20). "first after start": the first request of its kind after both processes were started (the app's first consumer request also loads its OpenAPI validator). Then per kind ${PLAN.patched.warmup} warm-up and ${PLAN.patched.samples} measured requests (patched), ${PLAN.stock.warmup} and ${PLAN.stock.samples} (stock); n is beside each figure. "after db restart": then the database alone is restarted on the same port, the app (warm) waits for \`/readyz\`, and the first read of each kind is timed again. The OS file cache is warm in both cases. Create + release: signed in as the dashboard is (session cookie, Origin), \`POST …/blogs\` then \`POST …/blogs/{id}/release\`, both times together. Peak RSS: VmHWM of /proc/PID/status since the process started.`,
    "",
    ...SIZES.flatMap((size) => [sizeTable(size, results), ""]),
    "### Targets (issue 14)",
    "",
    targetsTable(results, cold),
  ].join("\n");
}

// --- main ------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = Date.now();
  const load = { start: os.loadavg(), end: [] as number[] };
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  log("tsc -p server…");
  execFileSync(process.execPath, [tsc, "-p", "server"], { cwd: ROOT, stdio: ["ignore", 2, 2] });
  const bin = await ensureEmbeddedDbBinary(log);
  const cold = COLD_BUILD ? await coldBuild() : null;
  const tmp = await mkdtemp(path.join(os.tmpdir(), "pressroom-db-scaling-"));
  const results: VariantResult[] = [];
  const seeds: ScalingSeed[] = [];
  try {
    for (const size of SIZES) {
      const seedDir = path.join(
        SEED_DIR === undefined ? tmp : path.resolve(SEED_DIR),
        String(size),
      );
      const seed = await seeded(bin, seedDir, size);
      seeds.push(seed);
      for (const variant of VARIANTS) {
        if (variant === "stock" && STOCK_SIZES !== undefined && !STOCK_SIZES.includes(size)) {
          continue;
        }
        const dataDir = path.join(tmp, `${size}-${variant}`);
        await cp(path.join(seedDir, "data"), dataDir, { recursive: true });
        log(`${size.toLocaleString("en")} blogs, ${variant}:`);
        const result = await measureVariant(bin, dataDir, variant, seed);
        results.push(result);
        const list = result.measures.list;
        log(
          `  list p50 ${time(p50(list))} (first ${time(list.first)}), launcher peak RSS ${mb(result.rss.dbLists)} MB, app ${mb(result.rss.appLists)} MB`,
        );
        await rm(dataDir, { recursive: true, force: true });
      }
      if (SEED_DIR === undefined) await rm(seedDir, { recursive: true, force: true });
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  load.end = os.loadavg();
  const markdown = report(results, seeds, cold, load, (Date.now() - started) / 1000);
  process.stdout.write(`${markdown}\n`);
  if (WRITE) {
    const file = path.join(ROOT, "BENCHMARKS.md");
    await writeFile(file, withSection(await readOrEmpty(file), DB_SCALING, markdown));
    log("Wrote its section of BENCHMARKS.md");
  }
}

await main();
