import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { onFileEnd } from "./cleanup.js";

/** One request as the receiver got it. */
export interface Received {
  readonly id: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** The receiver's answer to a request: a status, or hold it (never answer) until closed. */
export type Answer = number | "hold";

export interface Receiver {
  /** `http://127.0.0.1:PORT/hook`: allowed with WEBHOOK_ALLOW_HTTP_LOOPBACK=true. */
  readonly url: string;
  /** Every request, in the order they arrived. */
  readonly received: Received[];
  /** Decides each answer (default: 204). */
  answer: (request: Received, index: number) => Answer;
  /** Each `webhook-id` once, in the order first received. */
  unique(): Received[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records what webhook deliveries it gets. */
export async function startReceiver(answer: Receiver["answer"] = () => 204): Promise<Receiver> {
  const received: Received[] = [];
  const held: http.ServerResponse[] = [];
  const receiver: Receiver = {
    url: "",
    received,
    answer,
    unique() {
      const seen = new Set<string>();
      return received.filter((r) => !seen.has(r.id) && seen.add(r.id) !== undefined);
    },
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const header = (name: string) => String(req.headers[name] ?? "");
      const r: Received = {
        id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(r);
      const a = receiver.answer(r, received.length - 1);
      if (a === "hold") {
        held.push(res);
        return;
      }
      res.writeHead(a, { "content-type": "text/plain" }).end(a < 300 ? "ok" : "not now");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onFileEnd(close);
  return Object.assign(receiver, { url: `http://127.0.0.1:${port}/hook`, close });
}

/** Whether `r` carries a valid signature by `secret` (the Standard Webhooks reference library). */
export function verifies(secret: string, r: Received): boolean {
  try {
    new Webhook(secret).verify(r.body, {
      "webhook-id": r.id,
      "webhook-timestamp": r.timestamp,
      "webhook-signature": r.signature,
    });
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 50 ms until it holds; fails after `ms` with `what`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 20_000,
): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
