import net from "node:net";

/**
 * Sends bytes no well-behaved client would (bare LF, non-ASCII, duplicate headers) straight
 * over TCP, and returns the status code of the answer (0 when the connection just closes).
 */
export function rawRequest(
  url: string,
  requestLineAndHeaders: string,
): Promise<{ status: number; raw: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(Buffer.from(`${requestLineAndHeaders}Connection: close\r\n\r\n`, "latin1"));
    });
    let raw = "";
    socket.on("data", (d: Buffer) => {
      raw += d.toString("latin1");
    });
    const done = () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0), raw });
    socket.on("end", done);
    socket.on("error", done);
  });
}

export interface PipelinedResponse {
  status: number;
  connection: string | undefined;
}

/**
 * A client that always keeps `depth` GETs queued on one keep-alive connection (HTTP/1.1
 * pipelining): it sends `depth` requests, then another each time a response is complete, until
 * the server closes the connection. Such a connection is never idle, so a server that only closes
 * idle connections never drains it. Resolves with the responses, in order, once it is closed.
 */
export function pipeliningClient(
  url: string,
  headers: Record<string, string>,
  depth = 2,
): { done: Promise<PipelinedResponse[]>; stop(): void } {
  const { hostname, port, pathname, search } = new URL(url);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const request = `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}\r\n${extra}\r\n`;
  const socket = net.connect(Number(port), hostname);
  const responses: PipelinedResponse[] = [];
  let buffer = Buffer.alloc(0);
  socket.on("connect", () => {
    for (let i = 0; i < depth; i++) socket.write(request);
  });
  socket.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1");
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      buffer = buffer.subarray(end + 4 + length);
      responses.push({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        connection: /\r\nconnection: *([^\r]*)/i.exec(head)?.[1]?.toLowerCase(),
      });
      if (socket.writable) socket.write(request);
    }
  });
  const done = new Promise<PipelinedResponse[]>((resolve) => {
    socket.on("error", () => {});
    socket.on("close", () => resolve(responses));
  });
  return { done, stop: () => socket.destroy() };
}
