import http from "node:http";
import type { AddressInfo } from "node:net";
import { onFileEnd } from "./cleanup.js";

/** One delivery as Pressroom sent it, and what the target answered when it was passed on. */
export interface Passed {
  /** The request's headers, as sent (lower-case names). */
  readonly headers: Record<string, string>;
  /** The raw body, as sent. */
  readonly body: string;
  /** The event, parsed from the body. */
  readonly event: { id: string; type: string; data: Record<string, string> };
  /** The target's answer, once the delivery was passed on. */
  answer?: { status: number; body: unknown };
}

export interface WebhookGate {
  /** `http://127.0.0.1:PORT<path>`: the webhook endpoint's URL. */
  readonly url: string;
  /** Where deliveries go: the same path on this origin (set before the first delivery). */
  targetOrigin: string;
  /** Every delivery received, in order. */
  readonly deliveries: Passed[];
  /** From now on, hold each delivery (answer nothing) until `open()`. */
  hold(): void;
  /** Passes the held deliveries on, in order, and every later one at once. */
  open(): Promise<void>;
}

/** The headers a delivery's verification needs, passed on byte for byte. */
const FORWARDED = [
  "content-type",
  "user-agent",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
];

/** The headers of `passed` a receiver reads (type, agent, the three signature headers). */
export function deliveryHeaders(passed: Passed): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = passed.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/**
 * A real HTTP server on 127.0.0.1 in front of a target (`targetOrigin` + `path`): it passes each
 * webhook delivery on unchanged (same bytes, same signature headers) and answers with the
 * target's answer — or, while held, keeps it until `open()`, so a test can look at the target
 * before a delivery reaches it.
 */
export async function startWebhookGate(path: string): Promise<WebhookGate> {
  const deliveries: Passed[] = [];
  const held: { passed: Passed; res: http.ServerResponse }[] = [];
  let holding = false;

  const pass = async (passed: Passed, res: http.ServerResponse) => {
    const headers = deliveryHeaders(passed);
    const answer = await fetch(`${gate.targetOrigin}${path}`, {
      method: "POST",
      headers,
      body: passed.body,
    });
    const text = await answer.text();
    passed.answer = { status: answer.status, body: text === "" ? undefined : JSON.parse(text) };
    if (!res.destroyed) res.writeHead(answer.status, { "content-type": "text/plain" }).end(text);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string") headers[name] = value;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      const passed: Passed = { headers, body, event: JSON.parse(body) as Passed["event"] };
      deliveries.push(passed);
      if (holding) held.push({ passed, res });
      else void pass(passed, res).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  onFileEnd(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const gate: WebhookGate = {
    url: `http://127.0.0.1:${port}${path}`,
    targetOrigin: "",
    deliveries,
    hold: () => {
      holding = true;
    },
    open: async () => {
      holding = false;
      for (let h = held.shift(); h !== undefined; h = held.shift()) await pass(h.passed, h.res);
    },
  };
  return gate;
}
