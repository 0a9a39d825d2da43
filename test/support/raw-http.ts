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
