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
