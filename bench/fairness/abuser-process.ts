/**
 * Each abuser of the fairness bench runs in a process of its own, as an abusive client runs on a
 * machine of its own: with the abusers' loops in the measuring process, tenant A's requests
 * waited for that process's event loop behind thousands of the abusers' requests a second, and
 * the figures counted the client's delay as the server's.
 *
 * The parent calls `startAbuserProcess`; this file, run as a child (`fork`), signs tenant B in,
 * starts the named abuser, says "started", and on "stop" answers with what it was answered.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ABUSES } from "./abusers.js";
import { signInB, type TenantBPlace } from "./tenants.js";

type ToChild = { readonly stop: true };
type FromChild = { readonly started: true } | { readonly answered: string };

interface Start {
  readonly abuse: string;
  readonly base: string;
  readonly b: TenantBPlace;
}

/** Starts abuser `abuse` in a child process; resolves once it is abusing. */
export async function startAbuserProcess(
  abuse: string,
  base: string,
  b: TenantBPlace,
): Promise<{ stop(): Promise<string> }> {
  const start: Start = { abuse, base, b };
  const child = fork(fileURLToPath(import.meta.url), [JSON.stringify(start)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = () =>
    new Promise<FromChild>((resolve, reject) => {
      child.once("message", (m) => resolve(m as FromChild));
      child.once("exit", (code) => reject(new Error(`abuser ${abuse} exited (${code})`)));
    });
  const started = await next();
  if (!("started" in started)) throw new Error(`abuser ${abuse}: unexpected ${started.answered}`);
  return {
    stop: async () => {
      const answer = next();
      child.send({ stop: true } satisfies ToChild);
      const answered = await answer;
      child.disconnect();
      return "answered" in answered ? answered.answered : "";
    },
  };
}

async function child(start: Start): Promise<void> {
  const abuse = ABUSES[start.abuse];
  if (abuse === undefined) throw new Error(`no abuser ${start.abuse}`);
  const send = (m: FromChild) => process.send?.(m);
  const running = abuse.start(start.base, await signInB(start.base, start.b));
  send({ started: true });
  process.once("message", async (m: ToChild) => {
    if (m.stop) send({ answered: await running.stop() });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send !== undefined) {
  await child(JSON.parse(process.argv[2] ?? "{}") as Start);
}
