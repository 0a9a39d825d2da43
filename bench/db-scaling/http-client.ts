/**
 * The HTTP client of bench/db-scaling.ts: one keep-alive connection, one request at a time, each
 * timed from its start to the last byte of its body.
 */
import http from "node:http";

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

export function client(base: string, timeoutMs: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(base);
  const call = (
    method: string,
    pathname: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<Reply> =>
    new Promise<Reply>((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        {
          agent,
          host: hostname,
          port,
          method,
          path: pathname,
          headers:
            body === undefined ? headers : { ...headers, "content-type": "application/json" },
          signal: AbortSignal.timeout(timeoutMs),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString("utf8"),
              ms: performance.now() - started,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { call, close: () => agent.destroy() };
}
export type Client = ReturnType<typeof client>;
