import { once } from "node:events";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { CORE_SCHEMA, load } from "js-yaml";

/** An OpenAPI document as far as the warm-up reads it: its base path and its operations. */
interface OpenApiShape {
  readonly servers?: readonly { readonly url?: unknown }[];
  readonly paths?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** A spec file, read once at start-up. */
export interface SpecDocument {
  readonly path: string;
  readonly document: OpenApiShape;
}

/**
 * Reads a spec with js-yaml (the parser the validator itself loads the file with), as YAML 1.2's
 * core schema: no timestamps or merge keys, so an unquoted date stays the string it is in the
 * file. On the 2-core machine it parsed admin.yaml in 55–65 ms, where the `yaml` package took
 * 375–456 ms (the same object), about a tenth of a start's CPU.
 */
export function readSpec(path: string): SpecDocument {
  const document: unknown = load(readFileSync(path, "utf8"), {
    schema: CORE_SCHEMA,
    filename: path,
  });
  if (typeof document !== "object" || document === null) {
    throw new Error(`${path} is not an OpenAPI document`);
  }
  return { path, document };
}

/** One operation of the spec, as the warm-up asked for it, and the status it was answered. */
export interface WarmedOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of the spec, with a URL that the validator routes to it. */
function operationsOf(spec: SpecDocument): Omit<WarmedOperation, "status">[] {
  const base = spec.document.servers?.[0]?.url;
  const prefix = typeof base === "string" ? base.replace(/\/$/, "") : "";
  return Object.entries(spec.document.paths ?? {}).flatMap(([template, item]) =>
    METHODS.filter((m) => typeof item[m] === "object" && item[m] !== null).map((method) => {
      const { operationId } = item[method] as { operationId?: unknown };
      return {
        operationId: typeof operationId === "string" ? operationId : `${method} ${template}`,
        method: method.toUpperCase(),
        // Any segment routes to the operation; its value is judged only after the validator has
        // been compiled, so a 400 for it is as good a warm-up as a pass.
        path: prefix + template.replace(/\{[^}]+\}/g, "warm-up"),
      };
    }),
  );
}

/** Sends one request to the warm-up server and resolves with its status; the body is dropped. */
async function send(port: number, method: string, path: string): Promise<number> {
  // Operations that take a body are compiled per content type: the one the clients send.
  const body = method === "GET" || method === "HEAD" || method === "DELETE" ? undefined : "{}";
  const req = http.request({
    host: "127.0.0.1",
    port,
    method,
    path,
    headers: body === undefined ? {} : { "content-type": "application/json" },
  });
  req.end(body);
  const [res] = (await once(req, "response")) as [http.IncomingMessage];
  res.resume();
  await once(res, "end");
  return res.statusCode ?? 0;
}

/**
 * express-openapi-validator loads its spec asynchronously after it is created, then compiles an
 * operation's request validator on that operation's first request. This sends one request per
 * operation of the spec through the given handlers (the same instances the app mounts, so what
 * they load and compile is what the app's requests use), in a throwaway Express app on a
 * loopback port of its own, before the app listens. Nothing else is in that app: no
 * authentication to pass and no route handler to run; a request the validator lets through gets
 * 204. A request that was not routed to its operation (404/405) or that failed (5xx: a spec that
 * does not load, a schema that does not compile) stops the start with an error naming it.
 */
export async function warmUpValidator(
  spec: SpecDocument,
  handlers: readonly RequestHandler[],
): Promise<readonly WarmedOperation[]> {
  const app = express();
  app.set("query parser", "simple");
  app.use(express.json());
  app.use(...handlers);
  app.use((_req, res) => {
    res.status(204).end();
  });
  let failure: unknown;
  const onError: ErrorRequestHandler = (err: { status?: unknown }, _req, res, _next) => {
    const status = typeof err.status === "number" ? err.status : 500;
    if (status >= 500) failure = err;
    res.status(status).end();
  };
  app.use(onError);

  const server = http.createServer(app);
  // Exclusive: in a cluster worker (README, "Workers") a port-0 listen is otherwise shared by
  // every worker through the primary, and this worker's requests could reach another's server.
  server.listen({ port: 0, host: "127.0.0.1", exclusive: true });
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const warmed: WarmedOperation[] = [];
  try {
    for (const op of operationsOf(spec)) {
      warmed.push({ ...op, status: await send(port, op.method, op.path) });
    }
  } finally {
    server.close();
  }
  const missed = warmed.filter((w) => w.status === 404 || w.status === 405 || w.status >= 500);
  if (missed.length > 0) {
    const list = missed.map((w) => `${w.operationId} (${w.method} ${w.path}: ${w.status})`);
    throw new Error(`The validator of ${spec.path} could not be warmed up: ${list.join(", ")}`, {
      cause: failure,
    });
  }
  return warmed;
}
