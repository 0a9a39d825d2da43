import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Registry } from "prom-client";
import type { MetricsSettings } from "../config.js";
import { isLoopbackHostname } from "../http/loopback.js";
import { closeGracefully, type DrainableServer, listen, urlOf } from "../http/server.js";

export interface MetricsServer {
  /** `http://host:port` of the listener; scrape `${url}/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

const sendJson = (res: ServerResponse, status: number, message: string): void => {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    ...(status === 401 ? { "www-authenticate": 'Bearer realm="metrics"' } : {}),
  });
  res.end(body);
};

/** Compares in constant time (both sides hashed first, so lengths do not leak either). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+)$/i.exec(header ?? "");
  const sent = createHash("sha256")
    .update(match?.[1] ?? "")
    .digest();
  const expected = createHash("sha256").update(token).digest();
  return match !== null && timingSafeEqual(sent, expected);
}

export const NO_TOKEN_LOOPBACK_ONLY =
  "Without METRICS_TOKEN, metrics answer only requests addressed to a loopback host (localhost, 127.0.0.1, [::1]): set METRICS_TOKEN to scrape them at another address.";

/**
 * Whether a Host header names this machine by a loopback name or address (admin/guards.ts,
 * `isLoopbackHostname`), as the URL parser reads it. Under DNS rebinding a page's requests carry
 * the attacker's own name (evil.example resolving to 127.0.0.1), never one of these.
 */
function namesLoopback(host: string | undefined): boolean {
  if (host === undefined || host === "" || /[/?#@\\\s]/.test(host)) return false;
  try {
    return isLoopbackHostname(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

/**
 * The metrics listener (METRICS_PORT), apart from the API's port so that a public deployment
 * never serves it: answers `GET /metrics` (and HEAD) with the registry in Prometheus text format,
 * a JSON 404 for anything else, and a JSON 401 without `Authorization: Bearer <METRICS_TOKEN>`
 * when a token is set. Without a token, a JSON 403 unless the Host names loopback: a web page
 * cannot read the metrics through DNS rebinding. Never any of the app's routes.
 */
export async function startMetricsServer(
  registry: Pick<Registry, "metrics" | "contentType">,
  settings: MetricsSettings,
): Promise<MetricsServer> {
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? "").split("?", 1)[0];
    if (path !== "/metrics") {
      sendJson(res, 404, "Not found.");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      sendJson(res, 405, "Method not allowed.");
      return;
    }
    if (settings.token !== undefined) {
      if (!tokenMatches(req.headers.authorization, settings.token)) {
        sendJson(res, 401, "Missing or wrong metrics token.");
        return;
      }
    } else if (!namesLoopback(req.headers.host)) {
      sendJson(res, 403, NO_TOKEN_LOOPBACK_ONLY);
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, {
          "content-type": registry.contentType,
          "cache-control": "no-store",
        });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      () => sendJson(res, 500, "Internal server error."),
    );
  };
  const server: DrainableServer = await listen(handler, settings.port, settings.host);
  return { url: urlOf(server), close: async () => void (await closeGracefully(server, 1000)) };
}

/**
 * Said at start-up when metrics are on: where they are served, and a warning when they are
 * reachable beyond loopback without a token (they hold no key, slug or id, but say how busy the
 * service is and which operations fail).
 */
export function metricsReachNote(
  settings: MetricsSettings,
  url: string,
): {
  level: "info" | "warn";
  msg: string;
} {
  const host = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  if (settings.token !== undefined || isLoopbackHostname(host)) {
    return {
      level: "info",
      msg: `Metrics on ${url}/metrics${settings.token === undefined ? "" : " (METRICS_TOKEN required)"}`,
    };
  }
  return {
    level: "warn",
    msg: `Metrics on ${url}/metrics, beyond loopback (METRICS_HOST=${settings.host}) with no METRICS_TOKEN: only requests addressed to a loopback host (localhost, 127.0.0.1, [::1]) are answered; set METRICS_TOKEN to scrape them at another address`,
  };
}
