/**
 * Counts the database work of one benchmark server, in a process of its own between that
 * server and the database (bench/run.ts starts one per server and points the server's
 * MONGODB_URI at it): a TCP relay that passes every byte on unchanged and reads the MongoDB
 * messages going by (bench/wire.ts):
 *
 *  - `apiKeyUpdates`: update statements sent to `apiKeys` (a bulk write of N keys counts N),
 *    the `lastUsedAt` writes of Pressroom's coalescer;
 *  - `blogDocs` / `blogDocsWithBody`: blog documents the database returned to `find` and
 *    `getMore` (a findOne is a find), and how many of them carried `bodyMarkdown`.
 *
 * The servers run the stock driver with its default options, so the counting costs their
 * processes nothing: the driver's command monitoring would have them deserialise every reply a
 * second time, which shows in the CPU figures the benchmark is about (BENCHMARKS.md, lab notes).
 * Env: DB_COUNTER_TARGET, the database's `mongodb://host:port/` URI. Sends `{ready: uri}` to the
 * parent once it listens, then answers `{type: "stats", id}` with `{id, stats: DbCounters}`.
 */
import net from "node:net";
import {
  commandOf,
  cursorBatch,
  elements,
  field,
  type Message,
  messageReader,
  OP_MSG,
  readOpMsg,
} from "./wire.js";

export interface DbCounters {
  apiKeyUpdates: number;
  blogDocs: number;
  blogDocsWithBody: number;
}

const counters: DbCounters = { apiKeyUpdates: 0, blogDocs: 0, blogDocsWithBody: 0 };

/** The ids of a connection's requests whose replies carry documents to count. */
type Pending = Set<number>;

function onRequest(message: Message, pending: Pending): void {
  if (message.opCode !== OP_MSG) return;
  const msg = readOpMsg(message);
  const { name, collection } = commandOf(msg);
  if (name === "find" || name === "getMore") pending.add(message.requestId);
  if (name === "update" && collection === "apiKeys") {
    const updates = field(msg.bytes, msg.body, "updates");
    let n = msg.sequences.get("updates") ?? 0;
    if (updates !== undefined) for (const _ of elements(msg.bytes, updates.start)) n += 1;
    counters.apiKeyUpdates += n;
  }
}

function onReply(message: Message, pending: Pending): void {
  if (!pending.delete(message.responseTo) || message.opCode !== OP_MSG) return;
  const msg = readOpMsg(message);
  const batch = cursorBatch(msg);
  if (batch === undefined || !batch.ns.endsWith(".blogs")) return;
  counters.blogDocs += batch.docs.length;
  for (const doc of batch.docs) {
    if (field(msg.bytes, doc, "bodyMarkdown") !== undefined) counters.blogDocsWithBody += 1;
  }
}

/** Relays one connection of the server to the database, reading both directions. */
function relay(client: net.Socket, target: { host: string; port: number }): void {
  const upstream = net.connect(target.port, target.host);
  // As the driver does on its own sockets: no Nagle delay on small messages.
  upstream.setNoDelay(true);
  const pending: Pending = new Set();
  const requests = messageReader((m) => onRequest(m, pending));
  const replies = messageReader((m) => onReply(m, pending));
  let broken = false;
  const read = (reader: (chunk: Buffer) => void, chunk: Buffer) => {
    if (broken) return;
    try {
      reader(chunk);
    } catch (err) {
      // Counting stops for this connection; the bytes still pass. Said once, on stderr.
      broken = true;
      process.stderr.write(`db-counter: stopped reading a connection: ${String(err)}\n`);
    }
  };
  client.on("data", (chunk: Buffer) => read(requests, chunk));
  upstream.on("data", (chunk: Buffer) => read(replies, chunk));
  client.pipe(upstream).pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
  client.on("close", () => upstream.destroy());
  upstream.on("close", () => client.destroy());
}

const targetUri = process.env.DB_COUNTER_TARGET ?? "";
const match = /^mongodb:\/\/([^/:]+):(\d+)\/?(\?.*)?$/.exec(targetUri);
if (match === null) throw new Error(`DB_COUNTER_TARGET is not mongodb://host:port/ (${targetUri})`);
const target = { host: match[1] ?? "127.0.0.1", port: Number(match[2]) };
const server = net.createServer({ noDelay: true }, (socket) => relay(socket, target));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as net.AddressInfo;

process.on("message", (message: { type?: string; id?: number }) => {
  if (message.type === "stats") process.send?.({ id: message.id, stats: { ...counters } });
});
// The parent going away ends us too.
process.on("disconnect", () => process.exit(0));
process.send?.({ ready: `mongodb://127.0.0.1:${port}/${match[3] ?? ""}` });
