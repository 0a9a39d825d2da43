/**
 * The baseline of bench/media.ts: one file served by bare `node:http`, a `createReadStream` per
 * request, with its length and type, as a static file server does. Prints its URL.
 */
import { createReadStream, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";

const file = process.argv[2] ?? "";
const size = statSync(file).size;
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "content-type": "image/jpeg", "content-length": String(size) });
  createReadStream(file).pipe(res);
});
server.listen(0, "127.0.0.1", () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
