import { execFile } from "node:child_process";
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
