import { onFileEnd } from "./cleanup.js";
import { type ServerProcess, startServerProcess } from "./cli.js";

/** One JSON log line of the server or its workers. */
export type LogLine = Record<string, unknown> & { msg?: string };

/** `pressroom start --workers N` (README, "Workers") as its own process. */
export interface WorkersServer extends ServerProcess {
  /** Every JSON line logged so far, by the primary and by its workers. */
  readonly lines: LogLine[];
  /** The first line (already logged or still to come) that `match` accepts. */
  logged(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** The process ids of the workers serving now, as the primary last told. */
  serving(): number[];
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `pressroom start --workers <workers>` with `env` (JSON logs) and resolves once the
 * primary has logged that every worker serves. Killed at the end of the file if still running.
 */
export async function startWorkersServer(
  workers: string,
  env: Record<string, string>,
): Promise<WorkersServer> {
  const server = await startServerProcess({ LOG_FORMAT: "json", ...env }, 120_000, [
    "--workers",
    workers,
  ]);
  onFileEnd(() => {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
  });
  const lines: LogLine[] = [];
  const waiters: { match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  let partial = "";
  const take = (text: string) => {
    const parts = (partial + text).split("\n");
    partial = parts.pop() ?? "";
    for (const part of parts) {
      if (!part.startsWith("{")) continue;
      const line = JSON.parse(part) as LogLine;
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  };
  take(server.output.join(""));
  server.child.stdout?.on("data", (chunk: Buffer) => take(chunk.toString("utf8")));
  const logged = (match: (line: LogLine) => boolean, timeoutMs = 120_000) => {
    const found = lines.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<LogLine>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`not logged within ${timeoutMs} ms:\n${server.output.join("")}`)),
        timeoutMs,
      );
      waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  };
  await logged((l) => l.role === "primary" && typeof l.url === "string" && l.workers !== undefined);
  const serving = () => {
    const alive = new Map<number, number>();
    for (const l of lines) {
      if (l.role !== "primary" || typeof l.workerPid !== "number") continue;
      if (typeof l.msg === "string" && l.msg.includes(" serving "))
        alive.set(Number(l.worker), l.workerPid);
      else alive.delete(Number(l.worker));
    }
    return [...alive.values()];
  };
  return {
    ...server,
    lines,
    logged,
    serving,
    stop: async () => {
      // "exit" can come before the pipe's last lines are read: every process writes to it, and
      // a worker's "stopped" line may still be on its way. The output ends when the pipe closes
      // ("close"); a process that outlived the primary holding it must not hang the test.
      const stdout = server.child.stdout;
      const drained = new Promise<void>((resolve) => {
        if (stdout === null || stdout.readableEnded) return resolve();
        const timer = setTimeout(resolve, 10_000);
        stdout.once("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      server.child.kill("SIGTERM");
      const code = await server.exit;
      await drained;
      return code;
    },
  };
}
