import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { onFileEnd } from "./cleanup.js";

/** examples/next-revalidate: a Next.js App Router site (its README.md). */
export const NEXT_EXAMPLE_DIR = fileURLToPath(
  new URL("../../examples/next-revalidate/", import.meta.url),
);

/** Next's own CLI, as the example's `npm run build` / `npm start` run it (a workspace of the root). */
const NEXT_BIN = createRequire(`${NEXT_EXAMPLE_DIR}package.json`).resolve("next/dist/bin/next");

/**
 * Only what Next needs, so nothing of the test process (NODE_ENV=test, vitest's variables) leaks
 * into the build or the site: production mode, and Next's telemetry off.
 */
const baseEnv = (): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
});

function run(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: string[] } {
  const child = spawn(process.execPath, [NEXT_BIN, ...args], {
    cwd: NEXT_EXAMPLE_DIR,
    env: { ...baseEnv(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const record = (chunk: Buffer) => output.push(chunk.toString("utf8"));
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  return { child, output };
}

/** `next build` of the example into its `.next/` (gitignored); rejects with its output on failure. */
export async function buildNextExample(): Promise<void> {
  const { child, output } = run(["build"], {});
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`next build exited ${code}:\n${output.join("")}`);
}

export interface NextSite {
  /** `http://127.0.0.1:PORT`, as `next start` printed it. */
  readonly url: string;
  /** Everything the site wrote to stdout and stderr, so far. */
  readonly output: string[];
}

/**
 * `next start` of the built example on a free loopback port with `env` (PRESSROOM_…), stopped
 * when the test file ends; resolves once it prints the address it listens on.
 */
export async function startNextExample(env: Record<string, string>): Promise<NextSite> {
  const { child, output } = run(["start", "--port", "0", "--hostname", "127.0.0.1"], env);
  const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
  onFileEnd(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exit;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const all = output.join("");
      const match = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(all);
      if (match?.[1] !== undefined && /Ready in/.test(all)) resolve(match[1]);
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    void exit.then((code) => reject(new Error(`next start exited ${code}:\n${output.join("")}`)));
  });
  return { url, output };
}
