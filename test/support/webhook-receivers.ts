import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, createServer as createTcpServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/** A TCP port that only counts who connects to it: proof that nothing reached an address. */
export interface Tripwire {
  readonly port: number;
  readonly connections: () => number;
  close(): Promise<void>;
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function tripwire(host = "127.0.0.1"): Promise<Tripwire> {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections++;
    socket.destroy();
  });
  const port = await listen(server, host);
  return { port, connections: () => connections, close: () => closeServer(server) };
}

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** A real HTTP(S) server that records every request and answers with `handler`. */
export interface Receiver {
  readonly port: number;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

export type Handler = (req: ReceivedRequest, res: ServerResponse) => void;

export async function receiver(
  handler: Handler,
  options: { host?: string; tls?: { key: string; cert: string } } = {},
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      handler(recorded, res);
    });
  };
  const server =
    options.tls === undefined ? createServer(onRequest) : createHttpsServer(options.tls, onRequest);
  const port = await listen(server, options.host ?? "127.0.0.1");
  return {
    port,
    requests,
    close: async () => {
      server.closeAllConnections();
      await closeServer(server);
    },
  };
}

/** A throwaway self-signed certificate for `name` (openssl, EC P-256, 1 day). */
export async function selfSignedCertificate(name: string): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "pressroom-webhook-tls-"));
  try {
    await promisify(execFile)("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${name}`,
      "-addext",
      `subjectAltName=DNS:${name}`,
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
    ]);
    return {
      key: await readFile(path.join(dir, "key.pem"), "utf8"),
      cert: await readFile(path.join(dir, "cert.pem"), "utf8"),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
