/**
 * Pressroom as it runs in production, in a child process of the benchmark: the real app
 * (`createApp`), `NODE_ENV=production` config (response validation off), the real HTTP server
 * settings, logging at the configured level to stdout. Only the database client is the
 * benchmark's (same options, through bench/db-counter.ts, which counts the database work on the
 * way), and an IPC channel reports CPU time and RSS.
 *
 * Like `npm start`, this runs compiled JavaScript on plain `node` (bench/servers.ts compiles bench/
 * with `tsc -p bench` and forks the output, bench/dist/bench/pressroom-server.js, with no
 * `--import tsx`, whose loader alone adds some 30 MB of RSS), and the server code it runs is the
 * server's own build, `server/dist` (run.ts runs `tsc -p server` first, as `npm run build` does).
 * Not the copy of server/src that `tsc -p bench` also emits under bench/dist/server/src: the
 * server finds its spec files, docs page and dashboard relative to its own module
 * (server/src/platform/paths.ts: `../../../openapi/openapi.yaml`, `../../dist/docs/index.html`, …), which holds
 * in server/src and server/dist but not one level deeper in bench/dist/server/src. server/dist
 * has no declaration files, so its modules are loaded through a non-literal specifier (which
 * TypeScript leaves untyped) and typed as the sources they are compiled from.
 */
import type * as AppModule from "../server/src/app.js";
import type * as ConfigModule from "../server/src/platform/config.js";
import type * as IndexesModule from "../server/src/platform/db/indexes.js";
import type * as HttpServerModule from "../server/src/platform/http/server.js";
import type * as LoggerModule from "../server/src/platform/logger.js";
import { benchMongoClient, serveControl, trackServer } from "./child-control.js";

/** A module of server/dist, through the workspace package `@pressroom/server` (server/). */
const fromDist = <Module>(file: string): Promise<Module> =>
  import(`@pressroom/server/dist/${file}`) as Promise<Module>;

const [{ createApp }, { loadConfig }, { ensureIndexes }, { listen, urlOf }, { createLogger }] =
  await Promise.all([
    fromDist<typeof AppModule>("app.js"),
    fromDist<typeof ConfigModule>("platform/config.js"),
    fromDist<typeof IndexesModule>("platform/db/indexes.js"),
    fromDist<typeof HttpServerModule>("platform/http/server.js"),
    fromDist<typeof LoggerModule>("platform/logger.js"),
  ]);

const config = loadConfig();
const client = await benchMongoClient(config.mongodbUri ?? "");
const db = client.db(config.mongodbDb);
await ensureIndexes(db);
const app = createApp({ config, db, logger: createLogger(config.logLevel) });
const server = await listen(app.handler, 0, "127.0.0.1");
trackServer(server);
serveControl();
process.send?.({ ready: urlOf(server) });
