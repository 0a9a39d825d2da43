/**
 * The fairness bench's webhook endpoints, loopback servers: one that answers at once and records
 * when each event arrived, one that accepts connections and never answers.
 */
import http from "node:http";
import net from "node:net";

export interface Receiver {
  readonly url: string;
  /** When (performance.now()) the first event about each blog arrived. */
  readonly arrivals: Map<string, number>;
  /** How long after its `occurredAt` (the write) the first event about each blog arrived, ms. */
  readonly sinceWrite: Map<string, number>;
  close(): Promise<void>;
}

/** A webhook endpoint that answers 204 at once and notes when each blog's first event came. */
export async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const sinceWrite = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          occurredAt?: string;
          data?: { blogId?: string };
        };
        const blogId = event.data?.blogId;
        if (blogId !== undefined && !arrivals.has(blogId)) {
          arrivals.set(blogId, at);
          sinceWrite.set(blogId, Date.now() - Date.parse(event.occurredAt ?? ""));
        }
      } catch {
        // Not an event of ours: ignored.
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    sinceWrite,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A webhook endpoint that accepts every connection and never answers (until closed). */
export async function startSilentEndpoint(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/never`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
