import { type SpawnOptions, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withLockFile } from "../../server/src/platform/embedded-db/lock-file.js";

/**
 * Schemathesis (https://schemathesis.readthedocs.io), the contract-test generator,
 * installed from PyPI into a project-local virtual environment, `.venv-schemathesis/`
 * (gitignored): created on first use, reused while `test/support/schemathesis-requirements.txt` (every
 * package pinned exactly) and the Python version stay the same, rebuilt otherwise. A lock file
 * keeps two processes from building it at once. Needs Python >= 3.11 (`python3`, or the one
 * named by PRESSROOM_PYTHON) and access to PyPI, nothing else.
 */
export const SCHEMATHESIS_VERSION = "4.32.5";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const VENV_DIR = path.join(ROOT, ".venv-schemathesis");
const LOCK_PATH = `${VENV_DIR}.lock`;
const STAMP_PATH = path.join(VENV_DIR, ".pressroom-stamp");
export const REQUIREMENTS_PATH = path.join(
  ROOT,
  "test",
  "support",
  "schemathesis-requirements.txt",
);
/** Reports of each run (configs, console output, JUnit): sanitised by schemathesis, no secrets. */
export const REPORTS_DIR = path.join(ROOT, "test-output", "schemathesis");
const INSTALL_TIMEOUT_MS = 5 * 60_000;

const windows = process.platform === "win32";
const venvBin = (name: string) =>
  path.join(VENV_DIR, windows ? "Scripts" : "bin", windows ? `${name}.exe` : name);

export interface Exec {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface ExecOptions extends SpawnOptions {
  /** SIGKILL after this long in all: the bound on a run that keeps making progress. */
  timeoutMs: number;
  /**
   * SIGKILL once the command has made no progress for this long: nothing printed, and the file
   * `progressFile` (when given) not grown. A slow run on a busy machine that keeps going is not
   * cut; a stuck one is, long before `timeoutMs`.
   */
  idleTimeoutMs?: number;
  progressFile?: string;
}

/** Progress is checked this often against `idleTimeoutMs`. */
const IDLE_CHECK_MS = 1_000;

/** Runs a command to completion (see ExecOptions for when it is killed), collecting its output. */
export function exec(
  command: string,
  args: readonly string[],
  { timeoutMs, idleTimeoutMs, progressFile, ...options }: ExecOptions,
): Promise<Exec> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let lastProgress = Date.now();
    let fileSize = -1;
    child.stdout?.on("data", (chunk: Buffer) => {
      out.push(chunk);
      lastProgress = Date.now();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      err.push(chunk);
      lastProgress = Date.now();
    });
    let timedOut = false;
    const kill = () => {
      timedOut = true;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(kill, timeoutMs);
    const idle =
      idleTimeoutMs === undefined
        ? undefined
        : setInterval(() => {
            if (progressFile !== undefined) {
              const size = existsSync(progressFile) ? statSync(progressFile).size : -1;
              if (size !== fileSize) {
                fileSize = size;
                lastProgress = Date.now();
              }
            }
            if (Date.now() - lastProgress > idleTimeoutMs) kill();
          }, IDLE_CHECK_MS);
    const stop = () => {
      clearTimeout(timer);
      clearInterval(idle);
    };
    child.on("error", (error) => {
      stop();
      reject(error);
    });
    child.on("close", (code, signal) => {
      stop();
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        timedOut,
      });
    });
  });
}

const failed = (what: string, r: Exec) =>
  new Error(
    `${what} failed (exit ${r.code}${r.signal ? `, ${r.signal}` : ""}${r.timedOut ? ", timed out" : ""}):\n` +
      `${r.stdout}\n${r.stderr}`.trim().split("\n").slice(-40).join("\n"),
  );

async function pythonVersion(python: string): Promise<string> {
  let r: Exec;
  try {
    r = await exec(python, ["-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"], {
      timeoutMs: 30_000,
    });
  } catch (err) {
    throw new Error(
      `Schemathesis needs Python >= 3.11, but \`${python}\` could not be run (${String(err)}). ` +
        "Install Python 3.11+ or point PRESSROOM_PYTHON at one.",
    );
  }
  const version = r.stdout.trim();
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (r.code !== 0 || major < 3 || (major === 3 && minor < 11)) {
    throw new Error(
      `Schemathesis ${SCHEMATHESIS_VERSION} needs Python >= 3.11; \`${python}\` is ${version || "unusable"}. ` +
        "Point PRESSROOM_PYTHON at a Python 3.11+.",
    );
  }
  return version;
}

/** `st --version` of the venv, or null when it is missing or broken. */
async function installedVersion(): Promise<string | null> {
  if (!existsSync(venvBin("st"))) return null;
  const r = await exec(venvBin("st"), ["--version"], { timeoutMs: 60_000 }).catch(() => null);
  return /version (\S+)/.exec(r?.stdout ?? "")?.[1] ?? null;
}

async function isUpToDate(stamp: string): Promise<boolean> {
  try {
    if ((await readFile(STAMP_PATH, "utf8")).trim() !== stamp) return false;
  } catch {
    return false;
  }
  return (await installedVersion()) === SCHEMATHESIS_VERSION;
}

async function build(python: string, log: (line: string) => void): Promise<void> {
  await rm(VENV_DIR, { recursive: true, force: true });
  log(`schemathesis: creating ${path.relative(ROOT, VENV_DIR)}/ with ${python}`);
  const pip = ["--disable-pip-version-check", "--no-input", "install", "--quiet"];
  const venv = await exec(python, ["-m", "venv", VENV_DIR], { timeoutMs: 120_000 });
  let install: Exec;
  if (venv.code === 0) {
    install = await exec(venvBin("python"), ["-m", "pip", ...pip, "-r", REQUIREMENTS_PATH], {
      timeoutMs: INSTALL_TIMEOUT_MS,
    });
  } else if (/ensurepip/.test(venv.stdout + venv.stderr)) {
    // Debian/Ubuntu without python3-venv: a venv without pip, filled by the system's pip.
    await rm(VENV_DIR, { recursive: true, force: true });
    const bare = await exec(python, ["-m", "venv", "--without-pip", VENV_DIR], {
      timeoutMs: 120_000,
    });
    if (bare.code !== 0) throw failed(`${python} -m venv --without-pip`, bare);
    install = await exec(
      python,
      ["-m", "pip", "--python", venvBin("python"), ...pip, "-r", REQUIREMENTS_PATH],
      { timeoutMs: INSTALL_TIMEOUT_MS },
    );
  } else {
    throw failed(`${python} -m venv`, venv);
  }
  if (install.code !== 0) throw failed(`pip install -r ${REQUIREMENTS_PATH}`, install);
}

export interface Schemathesis {
  /** The `st` executable. */
  readonly st: string;
  readonly version: string;
  readonly python: string;
  readonly pythonVersion: string;
  /** False when the venv was (re)built by this call. */
  readonly reused: boolean;
  readonly seconds: number;
}

/** The venv's `st`, creating or rebuilding the venv first when needed. */
export async function ensureSchemathesis(
  log: (line: string) => void = (line) => console.log(line),
): Promise<Schemathesis> {
  const started = Date.now();
  const python = process.env.PRESSROOM_PYTHON || "python3";
  const pyVersion = await pythonVersion(python);
  const stamp = createHash("sha256")
    .update(readFileSync(REQUIREMENTS_PATH))
    .update(`\0${pyVersion.split(".").slice(0, 2).join(".")}`)
    .digest("hex");
  const done = (reused: boolean): Schemathesis => ({
    st: venvBin("st"),
    version: SCHEMATHESIS_VERSION,
    python,
    pythonVersion: pyVersion,
    reused,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  });
  if (await isUpToDate(stamp)) return done(true);

  return withLockFile(
    LOCK_PATH,
    () =>
      log(`schemathesis: waiting for another process building ${path.relative(ROOT, VENV_DIR)}/`),
    async () => {
      // Someone else may have built it while we waited for the lock.
      if (await isUpToDate(stamp)) return done(true);
      await build(python, log);
      const version = await installedVersion();
      if (version !== SCHEMATHESIS_VERSION) {
        throw new Error(
          `schemathesis: installed ${version ?? "nothing"}, not ${SCHEMATHESIS_VERSION}`,
        );
      }
      await writeFile(STAMP_PATH, `${stamp}\n`);
      return done(false);
    },
  );
}

// ---------------------------------------------------------------------------------------------
// schemathesis.toml, written from a plain object

export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };
export type TomlTable = { [key: string]: TomlValue };

/** A `${NAME}` placeholder: schemathesis reads the value from the run's environment. */
export const envPlaceholder = (name: string): string => `\${${name}}`;

const isTable = (v: TomlValue): v is TomlTable => typeof v === "object" && !Array.isArray(v);
const tomlKey = (k: string) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));

function inline(v: TomlValue): string {
  if (typeof v === "string") return JSON.stringify(v); // JSON escapes are valid TOML escapes
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(inline).join(", ")}]`;
  return `{ ${Object.entries(v)
    .map(([k, x]) => `${tomlKey(k)} = ${inline(x)}`)
    .join(", ")} }`;
}

/** Top-level keys first, then one `[table]` per object and `[[table]]` per array of objects. */
export function toToml(config: TomlTable): string {
  const head: string[] = [];
  const tail: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (isTable(value)) {
      tail.push("", `[${tomlKey(key)}]`);
      for (const [k, v] of Object.entries(value)) tail.push(`${tomlKey(k)} = ${inline(v)}`);
    } else if (Array.isArray(value) && value.length > 0 && value.every(isTable)) {
      for (const item of value) {
        tail.push("", `[[${tomlKey(key)}]]`);
        for (const [k, v] of Object.entries(item)) tail.push(`${tomlKey(k)} = ${inline(v)}`);
      }
    } else {
      head.push(`${tomlKey(key)} = ${inline(value)}`);
    }
  }
  return `${[...head, ...tail].join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------
// One `st run`, and what it reported

export interface RunOptions {
  /** Names the report directory, test-output/schemathesis/<name>/. */
  readonly name: string;
  readonly st: string;
  /** The OpenAPI file. */
  readonly spec: string;
  /** schemathesis.toml contents; keep secrets out (use `${VAR}` placeholders and `env`). */
  readonly config: TomlTable;
  /** `st run` options besides the spec, the config file and the reports. */
  readonly args: readonly string[];
  /** Extra environment for the run (the secrets the config's placeholders name). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The run is killed when st has neither printed nor recorded an event for this long (it
   * writes one event per scenario, each flushed): stuck, not slow. Default RUN_IDLE_TIMEOUT_MS.
   */
  readonly idleTimeoutMs?: number;
  /** The bound on a run that keeps making progress. Default RUN_TIMEOUT_MS. */
  readonly timeoutMs?: number;
}

/**
 * A run's limits, in time without progress rather than in total: on a busy machine a run that
 * took 70 s on a quiet one took over 200 s and was cut with nothing wrong. The longest quiet
 * stretch of a healthy run is one operation's fuzzing, a few seconds.
 */
export const RUN_IDLE_TIMEOUT_MS = 120_000;
export const RUN_TIMEOUT_MS = 20 * 60_000;

export interface RequestHead {
  readonly operation: string;
  readonly bytes: number;
}

/**
 * A request head's bytes as Node's parser counts them against its 16 KB
 * (`--max-http-header-size`, 16,384: at that count it answers 431): the URL's path and query,
 * and each header's name and value (no method, spaces, colons or CRLFs). The headers are those
 * requests prepared, as schemathesis recorded them, and the `Host` that http.client adds.
 */
function headBytes(request: NdjsonRequest): number {
  const url = new URL(request.uri ?? "");
  const headers = [
    ["Host", url.host],
    ...Object.entries(request.headers ?? {}).flatMap(([name, values]) =>
      values.map((value) => [name, value]),
    ),
  ];
  const bytes = (s: string) => Buffer.byteLength(s, "latin1");
  return headers.reduce(
    (sum, [name = "", value = ""]) => sum + bytes(name) + bytes(value),
    bytes(`${url.pathname}${url.search}`),
  );
}

export interface CheckFailure {
  readonly operation: string;
  readonly check: string;
}

export interface RunResult {
  /** The command line, as a shell would take it from the repository root (no secrets in it). */
  readonly command: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly seconds: number;
  /** Everything `st` printed. */
  readonly output: string;
  /** "Test cases: N generated" of st's summary. */
  readonly generated: number | null;
  /** Test cases in the NDJSON event stream (a cross-check of `generated`). */
  readonly recordedCases: number;
  /** The same, by phase (examples, coverage, fuzzing, stateful). */
  readonly casesByPhase: ReadonlyMap<string, number>;
  /** Responses received, by operation label and status. */
  readonly statuses: ReadonlyMap<string, ReadonlyMap<number, number>>;
  /** The request head of every `431` answer, in the bytes Node counts (`headBytes`). */
  readonly headsOf431: readonly RequestHead[];
  /** How often each check ran (passed or failed). */
  readonly checksRun: ReadonlyMap<string, number>;
  readonly failures: readonly CheckFailure[];
  /** Errors schemathesis itself reported (network errors, runtime errors, schema errors). */
  readonly errors: readonly string[];
  /** JUnit totals. */
  readonly junit: { tests: number; failures: number; errors: number } | null;
  readonly seed: string | null;
  readonly reportDir: string;
}

const shellQuote = (s: string) =>
  /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;

interface NdjsonRequest {
  method?: string;
  uri?: string;
  headers?: Record<string, string[]>;
}

interface NdjsonScenario {
  phase?: string;
  recorder?: {
    label?: string;
    cases?: Record<string, { value?: { method?: string; path?: string } }>;
    checks?: Record<string, { name: string; status: string }[]>;
    interactions?: Record<
      string,
      { request?: NdjsonRequest; response?: { status_code?: number } | null }
    >;
  };
}

function runEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  // Only this config applies: no hooks or options from the caller's environment.
  for (const name of Object.keys(env)) if (name.startsWith("SCHEMATHESIS_")) delete env[name];
  // Uncoloured, wide, UTF-8 output, for parsing and for the logs.
  return { ...env, COLUMNS: "120", NO_COLOR: "1", PYTHONIOENCODING: "utf-8" };
}

/** Runs `st run` with the given config and parses its console summary, NDJSON and JUnit. */
export async function runSchemathesis(options: RunOptions): Promise<RunResult> {
  const reportDir = path.join(REPORTS_DIR, options.name);
  await rm(reportDir, { recursive: true, force: true });
  await mkdir(reportDir, { recursive: true });
  const configPath = path.join(reportDir, "schemathesis.toml");
  await writeFile(configPath, toToml(options.config));
  // The event stream holds unsanitised response bodies (minted keys, for one): kept in a
  // temporary directory and deleted once read.
  const eventsDir = await mkdtemp(path.join(tmpdir(), "pressroom-st-"));
  const eventsPath = path.join(eventsDir, "events.ndjson");
  const junitPath = path.join(reportDir, "junit.xml");
  const argv = [
    "--config-file",
    configPath,
    "run",
    options.spec,
    ...options.args,
    "--report",
    "junit,ndjson",
    "--report-junit-path",
    junitPath,
    "--report-ndjson-path",
    eventsPath,
    "--no-color",
  ];
  const command = [options.st, ...argv]
    .map((a) => shellQuote(a.startsWith(ROOT) ? path.relative(ROOT, a) || "." : a))
    .join(" ");
  const started = Date.now();
  try {
    const r = await exec(options.st, argv, {
      timeoutMs: options.timeoutMs ?? RUN_TIMEOUT_MS,
      idleTimeoutMs: options.idleTimeoutMs ?? RUN_IDLE_TIMEOUT_MS,
      progressFile: eventsPath,
      cwd: reportDir,
      env: runEnv(options.env),
    });
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    const output = `${r.stdout}${r.stderr === "" ? "" : `\n${r.stderr}`}`;
    await writeFile(path.join(reportDir, "output.txt"), `$ ${command}\n\n${output}`);

    const generated = /Test cases:\s*\n\s*(\d+) generated/.exec(output)?.[1];
    const seed = /^Seed: (\d+)/m.exec(output)?.[1] ?? null;
    const statuses = new Map<string, Map<number, number>>();
    const headsOf431: RequestHead[] = [];
    const checksRun = new Map<string, number>();
    const failures: CheckFailure[] = [];
    const errors: string[] = [];
    const casesByPhase = new Map<string, number>();
    let recordedCases = 0;
    const events = existsSync(eventsPath) ? await readFile(eventsPath, "utf8") : "";
    for (const line of events.split("\n")) {
      if (line.trim() === "") continue;
      const event = JSON.parse(line) as Record<string, unknown>;
      const [kind = "", body] = Object.entries(event)[0] ?? [];
      if (/Error/.test(kind)) errors.push(`${kind}: ${JSON.stringify(body).slice(0, 500)}`);
      if (kind !== "ScenarioFinished") continue;
      const recorder = (body as NdjsonScenario).recorder ?? {};
      const cases = recorder.cases ?? {};
      const count = Object.keys(cases).length;
      recordedCases += count;
      const phase = (body as NdjsonScenario).phase ?? "?";
      casesByPhase.set(phase, (casesByPhase.get(phase) ?? 0) + count);
      const labelOf = (id: string) => {
        const v = cases[id]?.value;
        return v?.method && v.path ? `${v.method} ${v.path}` : (recorder.label ?? "?");
      };
      for (const [id, interaction] of Object.entries(recorder.interactions ?? {})) {
        const status = interaction.response?.status_code;
        if (status === undefined) continue;
        const byStatus = statuses.get(labelOf(id)) ?? new Map<number, number>();
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        statuses.set(labelOf(id), byStatus);
        if (status === 431 && interaction.request)
          headsOf431.push({ operation: labelOf(id), bytes: headBytes(interaction.request) });
      }
      for (const [id, checks] of Object.entries(recorder.checks ?? {})) {
        for (const check of checks) {
          checksRun.set(check.name, (checksRun.get(check.name) ?? 0) + 1);
          if (check.status === "failure")
            failures.push({ operation: labelOf(id), check: check.name });
        }
      }
    }
    let junit: RunResult["junit"] = null;
    if (existsSync(junitPath)) {
      const xml = await readFile(junitPath, "utf8");
      const attr = (name: string) =>
        Number(new RegExp(`<testsuites[^>]*\\b${name}="(\\d+)"`).exec(xml)?.[1] ?? NaN);
      junit = { tests: attr("tests"), failures: attr("failures"), errors: attr("errors") };
    }
    return {
      command,
      exitCode: r.code,
      timedOut: r.timedOut,
      seconds,
      output,
      generated: generated === undefined ? null : Number(generated),
      recordedCases,
      casesByPhase,
      statuses,
      headsOf431,
      checksRun,
      failures,
      errors,
      junit,
      seed,
      reportDir,
    };
  } finally {
    await rm(eventsDir, { recursive: true, force: true });
  }
}

/** The part of st's output worth showing when a run fails: failures, errors and the summary. */
export function failureReport(run: RunResult, maxLines = 200): string {
  const lines = run.output.split("\n");
  const start = lines.findIndex((l) => /={5,} (FAILURES|ERRORS|WARNINGS|SUMMARY) ={5,}/.test(l));
  // Lines can be megabytes long (a generated body in a curl command): cut each one.
  const shown = (start >= 0 ? lines.slice(start) : lines)
    .filter((l) => l.trim() !== "")
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)} …(${l.length} characters)` : l));
  const cut = shown.length > maxLines ? [...shown.slice(0, maxLines), "…"] : shown;
  return [
    `$ ${run.command}`,
    ...cut,
    `(full output: ${path.join(run.reportDir, "output.txt")})`,
  ].join("\n");
}

/**
 * "GET /blogs  200×812 304×40 …", one line per operation; the one-off probes of methods the
 * spec does not declare (unsupported_method) summed up in a last line.
 */
export function statusTable(run: RunResult): string {
  const fmt = (byStatus: ReadonlyMap<number, number>) =>
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(" ");
  const rows: string[] = [];
  const probes = new Map<number, number>();
  for (const [op, byStatus] of [...run.statuses.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
    if (total === 1 && !run.failures.some((f) => f.operation === op)) {
      for (const [s, n] of byStatus) probes.set(s, (probes.get(s) ?? 0) + n);
    } else {
      rows.push(`  ${op.padEnd(58)} ${fmt(byStatus)}`);
    }
  }
  if (probes.size > 0)
    rows.push(`  ${"(single probes, undeclared methods)".padEnd(58)} ${fmt(probes)}`);
  return rows.join("\n");
}
