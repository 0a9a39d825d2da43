import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { AnswerCacheMonitor } from "../http/answer-cache.js";
import type { BufferMonitor, BufferState } from "../timers/coalescing-buffer.js";

/** Why the consumer API refused a request (README, "Metrics"). */
export type RejectionReason = "invalid_key" | "not_found" | "rate_limited";

/** The coalescing buffers that are watched: `lastUsedAt` writes and usage counts. */
export type BufferName = "last_used" | "token_last_used" | "usage";

/**
 * The app's metrics: one Prometheus registry per app instance (never prom-client's global one),
 * made by the composition root and handed to what records. Label values come from small fixed
 * sets only (operation ids, status codes, command names, reasons): never a key, slug or id.
 */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<"operation" | "status">;
  readonly httpDuration: Histogram<"operation" | "status">;
  readonly dbCommands: Histogram<"command" | "outcome">;
  rejected(reason: RejectionReason): void;
  /** A webhook attempt recorded by this instance: delivered (2xx) or failed. */
  webhookAttempt(delivered: boolean): void;
  /** The monitor of one coalescing buffer (platform/timers/coalescing-buffer.ts). */
  bufferMonitor(name: BufferName): BufferMonitor;
  /** The monitor of the consumer lists' answer cache (platform/http/answer-cache.ts). */
  readonly answerCache: AnswerCacheMonitor;
}

const SECONDS_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * Builds the registry and the app's metrics. With `processMetrics`, also prom-client's default
 * process and Node.js metrics (CPU, memory, handles, GC, `nodejs_eventloop_lag_*`): only when the
 * metrics listener is on, since in prom-client 15 they cannot be stopped (an event-loop delay
 * monitor and a GC observer, neither of which keeps the process alive; values are read on scrape).
 */
export function createMetrics({ processMetrics }: { processMetrics: boolean }): Metrics {
  const registry = new Registry();
  const registers = [registry];
  if (processMetrics) collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: "pressroom_http_requests_total",
    help: "HTTP requests answered, by OpenAPI operation (or docs/dashboard/health/not_found/…) and status code.",
    labelNames: ["operation", "status"] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: "pressroom_http_request_duration_seconds",
    help: "Time from a request's arrival to its response's last byte handed to the OS.",
    labelNames: ["operation", "status"] as const,
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const rejections = new Counter({
    name: "pressroom_consumer_rejections_total",
    help: "Consumer API requests refused: invalid_key (401), not_found (404), rate_limited (429).",
    labelNames: ["reason"] as const,
    registers,
  });
  for (const reason of ["invalid_key", "not_found", "rate_limited"] as const) {
    rejections.inc({ reason }, 0);
  }
  const dbCommands = new Histogram({
    name: "pressroom_db_command_duration_seconds",
    help: "Database round trips as the driver measured them, by command and outcome (ok/error).",
    labelNames: ["command", "outcome"] as const,
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const buffers = bufferMetrics(registers);
  const webhookAttempts = new Counter({
    name: "pressroom_webhook_attempts_total",
    help: "Webhook delivery attempts this instance made and recorded, by outcome (delivered: 2xx; failed).",
    labelNames: ["outcome"] as const,
    registers,
  });
  for (const outcome of ["delivered", "failed"] as const) webhookAttempts.inc({ outcome }, 0);
  const answerCache = answerCacheMetrics(registers);

  return {
    registry,
    httpRequests,
    httpDuration,
    dbCommands,
    rejected: (reason) => rejections.inc({ reason }),
    webhookAttempt: (delivered) =>
      webhookAttempts.inc({ outcome: delivered ? "delivered" : "failed" }),
    bufferMonitor: buffers,
    answerCache,
  };
}

/** Metrics of the answer cache: answers sent from it or read whole, and the bytes it holds. */
function answerCacheMetrics(registers: Registry[]): AnswerCacheMonitor {
  const sent = new Counter({
    name: "pressroom_answer_cache_answers_total",
    help: "Consumer list pages and feeds with the answer cache on: sent from memory (hit) or read whole (miss).",
    labelNames: ["outcome"] as const,
    registers,
  });
  for (const outcome of ["hit", "miss"] as const) sent.inc({ outcome }, 0);
  let held = () => 0;
  new Gauge({
    name: "pressroom_answer_cache_bytes",
    help: "Bytes the answer cache holds (at most ANSWER_CACHE_BYTES per process).",
    registers,
    collect() {
      this.set(held());
    },
  });
  return {
    sent: (outcome) => sent.inc({ outcome }),
    watch: (read) => {
      held = read;
    },
  };
}

/** Metrics of the coalescing buffers, read from each buffer's state when scraped. */
function bufferMetrics(registers: Registry[]): (name: BufferName) => BufferMonitor {
  const states = new Map<BufferName, () => BufferState>();
  new Gauge({
    name: "pressroom_coalesced_writes_pending",
    help: "Entries waiting in a coalescing buffer for their batched write (buffer: last_used, token_last_used, usage).",
    labelNames: ["buffer"] as const,
    registers,
    collect() {
      for (const [buffer, state] of states) this.set({ buffer }, state().pending);
    },
  });
  new Gauge({
    name: "pressroom_coalesced_writes_lag_seconds",
    help: "How long the oldest entry waiting in a coalescing buffer has waited (0: none waits).",
    labelNames: ["buffer"] as const,
    registers,
    // With workers the primary serves them all (cluster-metrics.ts): the oldest wait, not a sum.
    aggregator: "max",
    collect() {
      for (const [buffer, state] of states) this.set({ buffer }, state().oldestAgeSeconds);
    },
  });
  const flushDuration = new Histogram({
    name: "pressroom_coalesced_writes_flush_duration_seconds",
    help: "Time of one batched write of a coalescing buffer, failed ones included.",
    labelNames: ["buffer"] as const,
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const flushFailures = new Counter({
    name: "pressroom_coalesced_writes_flush_failures_total",
    help: "Batched writes of a coalescing buffer that failed (their entries wait for the next one).",
    labelNames: ["buffer"] as const,
    registers,
  });
  return (buffer) => {
    flushFailures.inc({ buffer }, 0);
    return {
      watch: (state) => {
        states.set(buffer, state);
      },
      flushed: (seconds, ok) => {
        flushDuration.observe({ buffer }, seconds);
        if (!ok) flushFailures.inc({ buffer });
      },
    };
  };
}
