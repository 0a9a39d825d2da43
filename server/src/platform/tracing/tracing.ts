import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from "@opentelemetry/api";
import type { RequestHandler } from "express";
import type {
  CommandFailedEvent,
  CommandStartedEvent,
  CommandSucceededEvent,
  MongoClient,
} from "mongodb";
import { commandLabel } from "../metrics/db-commands.js";
import type { TracingSettings } from "./tracing-settings.js";

/** OpenTelemetry tracing of one app: a SERVER span per request, CLIENT spans per database command. */
export interface Tracing {
  /** Mount early: starts each request's span (parented by an incoming `traceparent`). */
  readonly middleware: RequestHandler;
  /** Times every command of `client` (needs `monitorCommands`) as a child of the request's span. */
  observeDb(client: MongoClient): () => void;
  /** Sends the spans still buffered and stops. */
  close(): Promise<void>;
}

const headerGetter: TextMapGetter<Record<string, string | string[] | undefined>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/**
 * Loads the OpenTelemetry SDK (imported here, lazily, so that a start without tracing loads none
 * of it) and builds a tracer of our own: no global provider, no auto-instrumentation (it patches
 * modules, which is fragile under ESM). Spans carry the method, the route template, the status
 * and the request id: never a header, a query value, a path with its ids, or a key.
 */
export async function startTracing(settings: TracingSettings): Promise<Tracing> {
  const [
    { TracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const [{ AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }] = await Promise.all([
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
  ]);
  const exporter = new OTLPTraceExporter({ url: settings.url, headers: { ...settings.headers } });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer("pressroom");
  const contexts = new AsyncLocalStorageContextManager().enable();
  const propagator = new W3CTraceContextPropagator();

  const middleware: RequestHandler = (req, res, next) => {
    const parent = propagator.extract(ROOT_CONTEXT, req.headers, headerGetter);
    const span = tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "http.request.method": req.method,
          "pressroom.request_id": res.locals.requestId,
        },
      },
      parent,
    );
    res.once("finish", () => {
      // The template of the route that answered (`/api/consumer/blogs/:blogId`), never the path.
      const route = req.route?.path;
      if (typeof route === "string") {
        span.setAttribute("http.route", `${req.baseUrl}${route}`);
        span.updateName(`${req.method} ${req.baseUrl}${route}`);
      }
      span.setAttribute("http.response.status_code", res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    contexts.with(trace.setSpan(parent, span), next);
  };

  const observeDb = (client: MongoClient): (() => void) => {
    const open = new Map<string, Span>();
    const id = (e: { connectionId?: unknown; requestId: number }) =>
      `${String(e.connectionId)}/${e.requestId}`;
    const started = (event: CommandStartedEvent) => {
      const active: Context = contexts.active();
      if (trace.getSpan(active) === undefined) return; // outside any request: not traced
      const collection = event.command[event.commandName];
      const span = tracer.startSpan(
        commandLabel(event.commandName),
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "db.system.name": "mongodb",
            "db.operation.name": commandLabel(event.commandName),
            "db.namespace": event.databaseName,
            ...(typeof collection === "string" ? { "db.collection.name": collection } : {}),
          },
        },
        active,
      );
      open.set(id(event), span);
    };
    const ended = (event: CommandSucceededEvent | CommandFailedEvent, ok: boolean) => {
      const span = open.get(id(event));
      if (span === undefined) return;
      open.delete(id(event));
      if (!ok) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    const succeeded = (event: CommandSucceededEvent) => ended(event, true);
    const failed = (event: CommandFailedEvent) => ended(event, false);
    client.on("commandStarted", started);
    client.on("commandSucceeded", succeeded);
    client.on("commandFailed", failed);
    return () => {
      client.off("commandStarted", started);
      client.off("commandSucceeded", succeeded);
      client.off("commandFailed", failed);
      for (const span of open.values()) span.end();
      open.clear();
    };
  };

  return {
    middleware,
    observeDb,
    close: async () => {
      await provider.shutdown();
      contexts.disable();
    },
  };
}
