/**
 * Pressroom as it runs in production, in a child process of the benchmark: the real app
 * (`createApp`), `NODE_ENV=production` config (response validation off), the real HTTP server
 * settings, logging at the configured level to stdout. Only the database client is the
 * benchmark's (same options, plus counters), and an IPC channel reports CPU time and RSS.
 */
import { createApp } from "../server/src/app.js";
import { loadConfig } from "../server/src/config.js";
import { ensureIndexes } from "../server/src/db/collections.js";
import { listen, urlOf } from "../server/src/http-server.js";
import { createLogger } from "../server/src/logger.js";
import { benchMongoClient, serveControl, trackServer } from "./child-control.js";

const config = loadConfig();
const client = await benchMongoClient(config.mongodbUri ?? "");
const db = client.db(config.mongodbDb);
await ensureIndexes(db);
const app = createApp({ config, db, logger: createLogger(config.logLevel) });
const server = await listen(app.handler, 0, "127.0.0.1");
trackServer(server);
serveControl();
process.send?.({ ready: urlOf(server) });
