import type { RequestListener } from "node:http";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * The HTTP server, knowing its responses in flight so that `closeGracefully` can end keep-alive
 * connections: without that, clients under load keep reusing their connections and a shutdown
 * never drains until its timeout cuts requests off.
 */
export class DrainableServer extends http.Server {
  readonly #inFlight = new Set<http.ServerResponse>();
  /** Responses in flight per connection (more than one when a client pipelines). */
  readonly #perSocket = new Map<Socket, number>();
  #draining = false;

  constructor(handler: RequestListener) {
    super(handler);
    // Runs before the handler, so the header is set before anything can be sent.
    this.prependListener("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (this.#draining) res.setHeader("connection", "close");
      const socket = req.socket;
      this.#inFlight.add(res);
      this.#perSocket.set(socket, (this.#perSocket.get(socket) ?? 0) + 1);
      res.once("close", () => {
        this.#inFlight.delete(res);
        const left = (this.#perSocket.get(socket) ?? 1) - 1;
        if (left > 0) this.#perSocket.set(socket, left);
        else this.#perSocket.delete(socket);
        // A response whose headers went out before the drain began kept its connection open:
        // end it (after what was written) unless another request on it is being answered.
        if (this.#draining && left === 0) socket.end();
      });
    });
  }

  /** Responses started and not yet finished or abandoned. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * From now on every response closes its connection: those in flight whose headers are not
   * out yet, and any request still arriving on an open connection. Idle connections close now.
   */
  drain(): void {
    this.#draining = true;
    for (const res of this.#inFlight) {
      if (!res.headersSent) res.setHeader("connection", "close");
    }
    this.closeIdleConnections();
  }
}

export async function listen(
  handler: RequestListener,
  port: number,
  host: string,
): Promise<DrainableServer> {
  const server = new DrainableServer(handler);
  // Slowloris guard and keep-alive that outlives common load-balancer idle timeouts.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
  // Requests Node cannot even parse (bare LF, oversized headers, bad bytes) still get the
  // service's JSON error shape instead of Node's empty 400.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === "HPE_HEADER_OVERFLOW";
    const body = JSON.stringify({
      message: tooLarge ? "Request headers too large." : "Bad request.",
    });
    socket.end(
      `HTTP/1.1 ${tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}

export function urlOf(server: http.Server): string {
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return `http://${host === "0.0.0.0" || host === "[::]" ? "localhost" : host}:${port}`;
}

/**
 * Stops accepting connections and lets in-flight requests finish: each answers with
 * `Connection: close`, idle keep-alive connections are closed at once and the others as soon as
 * their response is done. After `timeoutMs` whatever is left is closed; the result says how
 * many requests were still in flight then (0 when everything finished in time).
 */
export async function closeGracefully(server: DrainableServer, timeoutMs: number): Promise<number> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.drain();
  let cut = 0;
  const timer = setTimeout(() => {
    cut = server.inFlight;
    server.closeAllConnections();
  }, timeoutMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
  return cut;
}
