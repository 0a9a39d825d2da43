import type { Request, RequestHandler } from "express";
import type { Metrics } from "./metrics.js";

/**
 * The `operation` label of a request: the OpenAPI operationId when either spec's validator
 * matched one (consumer or admin), else one of a small fixed set, never the path (unbounded, and
 * it may hold a slug or, mistyped, a key):
 *   not_found   404 on a path no route or operation knows
 *   consumer    consumer API refused before its operation was matched (401, 429)
 *   admin       admin API refused before its operation was matched (403 origin, 405, …)
 *   health      /healthz, /readyz
 *   docs        /docs, /openapi.yaml
 *   dashboard   /dashboard/… and the / redirect
 *   other       anything else (a request Node or Express refused early)
 */
export function operationOf(req: Request, status: number): string {
  const operationId: unknown = (req as { openapi?: { schema?: { operationId?: unknown } } }).openapi
    ?.schema?.operationId;
  if (typeof operationId === "string" && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(operationId)) {
    return operationId;
  }
  const path = req.originalUrl.split("?", 1)[0] ?? "";
  if (path === "/healthz" || path === "/readyz") return "health";
  if (status === 404) return "not_found";
  if (path === "/api/consumer" || path.startsWith("/api/consumer/")) return "consumer";
  if (path === "/api/admin" || path.startsWith("/api/admin/")) return "admin";
  if (path === "/docs" || path.startsWith("/docs/") || path === "/openapi.yaml") return "docs";
  if (path === "/" || path === "/dashboard" || path.startsWith("/dashboard/")) return "dashboard";
  return "other";
}

/** Counts and times every answered request by operation and status (README, "Metrics"). */
export function httpMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = { operation: operationOf(req, res.statusCode), status: res.statusCode };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, seconds);
    });
    next();
  };
}
