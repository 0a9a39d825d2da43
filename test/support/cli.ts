import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CLI_PATH = fileURLToPath(new URL("../../server/bin/pressroom.js", import.meta.url));
const BUILT = fileURLToPath(new URL("../../server/dist/cli/main.js", import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built operator CLI (`npx pressroom …`) as a separate process. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  stdin = "",
): Promise<CliResult> {
  if (!existsSync(BUILT)) throw new Error("server/dist is missing: run `npm run build` first");
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI_PATH, ...args],
      {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
        timeout: 120_000,
      },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(stdin);
  });
}

/** A `pressroom start` process (test/support/cli.ts `startServerProcess`). */
export interface ServerProcess {
  readonly child: ChildProcess;
  /** The URL from its "listening" log line. */
  readonly url: string;
  /** Everything it wrote to stdout and stderr, so far. */
  readonly output: string[];
  readonly exit: Promise<number | null>;
}

/**
 * `pressroom start` (what `npm start` runs) as its own process, with only PATH, HOME and `env`
 * in its environment (PORT 0 unless given) and `args` after `start`; resolves once it logs the
 * URL it listens on (with workers: once the first worker does).
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 120_000,
  args: string[] = [],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [CLI_PATH, "start", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no listen line:\n${output.join("")}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString("utf8"));
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output.join(""));
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exit.then((code) => reject(new Error(`exited ${code}:\n${output.join("")}`)));
  });
  return { child, url, output, exit };
}
