import net from "node:net";

/**
 * A TCP relay between the server and the database, so a test can cut the database off
 * (refuse new connections, drop open ones) and bring it back on the same address — whatever
 * MONGODB_URI the suite runs against.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly clients = new Set<net.Socket>();
  private held = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      this.clients.add(client);
      client.on("close", () => this.clients.delete(client));
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
      if (this.held) client.pause();
    });
    await listenOn(server, this.port);
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** The database stalls: what the server sends is held, unanswered, until `release`. */
  hold(): void {
    this.held = true;
    for (const c of this.clients) c.pause();
  }

  release(): void {
    this.held = false;
    for (const c of this.clients) c.resume();
  }

  /** The database "stops": no new connections, and every open one is dropped. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * `server.listen` on 127.0.0.1:`port`, rejecting on a listen error (an `error` event nobody
 * listens to would crash the test process, and `listen`'s callback would never run). Coming
 * back on the same port after `stop`, another process may hold it for a moment: retried for
 * up to 5 s, then it fails saying so.
 */
async function listenOn(server: net.Server, port: number): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      await new Promise<void>((resolve, reject) => {
        const listening = () => {
          server.off("error", failed);
          resolve();
        };
        const failed = (err: Error) => {
          server.off("listening", listening);
          reject(err);
        };
        server.once("listening", listening).once("error", failed);
        server.listen(port, "127.0.0.1");
      });
      return;
    } catch (err) {
      const inUse = (err as NodeJS.ErrnoException).code === "EADDRINUSE";
      if (!inUse || port === 0 || Date.now() > deadline) {
        throw new Error(`TCP proxy: cannot listen on 127.0.0.1:${port}: ${String(err)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** host and port of the first host of a mongodb:// URI. */
export function firstHost(uri: string): { host: string; port: number } {
  const match = /^mongodb:\/\/(?:[^@/]*@)?([^,/?:]+)(?::(\d+))?/.exec(uri);
  if (match === null) throw new Error(`cannot proxy ${uri}`);
  return { host: match[1] ?? "127.0.0.1", port: Number(match[2] ?? 27017) };
}

/** The same URI (credentials and options kept) pointed at the proxy, as a direct connection. */
export function proxiedUri(uri: string, proxyPort: number): string {
  const match = /^mongodb:\/\/([^@/]*@)?[^/?]*\/?([^?]*)(?:\?(.*))?$/.exec(uri);
  if (match === null) throw new Error(`cannot proxy ${uri}`);
  const options = (match[3] ?? "")
    .split("&")
    .filter((o) => o !== "" && !/^(replicaSet|directConnection)=/.test(o));
  options.push("directConnection=true");
  return `mongodb://${match[1] ?? ""}127.0.0.1:${proxyPort}/${match[2] ?? ""}?${options.join("&")}`;
}
