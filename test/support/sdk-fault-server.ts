import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { onFileEnd } from "./cleanup.js";

/** How the fault server answers one request. */
export type Fault =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** A body sent as is (not JSON), e.g. a proxy's HTML error page. */
  | { status: number; raw: string; headers?: Record<string, string> }
  /** Never answer (the socket stays open until the client gives up). */
  | "hang"
  /** Destroy the socket without a response: a network failure for the client. */
  | "destroy";

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** performance.now() when the request arrived. */
  readonly at: number;
}

export interface FaultServer {
  /** Base URL to give the SDK, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** Every request received since the last `script()` (which also restarts request ids). */
  readonly requests: RecordedRequest[];
  /** Answers for the next requests, in order; the last one repeats. Clears `requests`. */
  script(...faults: (Fault | ((request: RecordedRequest) => Fault))[]): void;
  close(): Promise<void>;
}

export const PAGE = { data: [], nextCursor: null };

/** A 200 like the real server's, with a strong ETag and a request id. */
export const ok = (body: unknown = PAGE, headers: Record<string, string> = {}): Fault => ({
  status: 200,
  body,
  headers: { etag: '"v1"', ...headers },
});

/**
 * A node:http server on 127.0.0.1:0 that answers from a script: statuses, Retry-After, hangs and
 * dropped connections — no global fetch mocking. Each response carries `x-request-id: req-<n>`.
 */
export async function startFaultServer(): Promise<FaultServer> {
  let queue: (Fault | ((request: RecordedRequest) => Fault))[] = [ok()];
  const requests: RecordedRequest[] = [];
  let count = 0;
  const server = createServer((req, res) => {
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      at: performance.now(),
    };
    requests.push(recorded);
    count++;
    const next = queue.length > 1 ? queue.shift() : queue[0];
    const fault = typeof next === "function" ? next(recorded) : next;
    if (fault === undefined || fault === "hang") return;
    if (fault === "destroy") {
      req.socket.destroy();
      return;
    }
    res.setHeader("x-request-id", `req-${count}`);
    for (const [name, value] of Object.entries(fault.headers ?? {})) res.setHeader(name, value);
    if ("raw" in fault) {
      res.setHeader("content-type", "text/html");
      res.writeHead(fault.status).end(fault.raw);
      return;
    }
    if (fault.body === undefined || fault.status === 304) {
      res.writeHead(fault.status).end();
      return;
    }
    res.setHeader("content-type", "application/json; charset=utf-8");
    res.writeHead(fault.status).end(JSON.stringify(fault.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onFileEnd(close);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(...faults) {
      if (faults.length === 0) throw new Error("script() needs at least one answer");
      queue = faults;
      requests.length = 0;
      count = 0;
    },
    close,
  };
}
