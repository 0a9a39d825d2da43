import type { RequestListener } from "node:http";
import http from "node:http";
import type { AddressInfo } from "node:net";

export async function listen(
  handler: RequestListener,
  port: number,
  host: string,
): Promise<http.Server> {
  const server = http.createServer(handler);
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
 * Stops accepting connections, lets in-flight requests finish (idle keep-alive sockets are
 * closed at once), and after `timeoutMs` closes whatever is left.
 */
export async function closeGracefully(server: http.Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}
