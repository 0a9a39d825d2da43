/**
 * What tenant A feels during one window: its consumers' list requests (closed loop), its
 * writer's saves (one after another), and the lag of its webhook deliveries (a blog released
 * every second, timed from the release request to the receiver's first event about it).
 */

import { ANY_VERSION, percentile } from "../admin-client.js";
import type { Receiver } from "./http.js";
import { ORDINARY_BODY, type Tenants } from "./tenants.js";

export interface WindowFigures {
  readonly consumer: { count: number; p50: number; p99: number; max: number; failed: number };
  readonly saves: { count: number; ok: number; p50: number; p99: number; statuses: string };
  /** Lag of each release's delivery, ms; a release whose event never came counts as missing. */
  readonly webhook: {
    count: number;
    p50: number;
    max: number;
    missing: number;
    /** From the release's write (the event's occurredAt) to its arrival: the delivery alone. */
    sinceWriteMax: number;
  };
}

/** How long, after a window, A's last releases may still take to be delivered. */
const DELIVERY_GRACE_MS = 30_000;

/**
 * Windows measured so far, in the titles of A's blogs: a title used in an earlier window would
 * take its slug's `-2`, `-3`… (blogs/blog-writes.ts), one refused insert per window before, and
 * every window's saves would cost more than the one before it.
 */
let windowsMeasured = 0;

export async function measureTenantA(
  base: string,
  tenants: Tenants,
  receiver: Receiver,
  seconds: number,
  connections: number,
): Promise<WindowFigures> {
  const { admin, workspace, key } = tenants.a;
  const w = ++windowsMeasured;
  const end = performance.now() + seconds * 1000;
  const consumerMs: number[] = [];
  let consumerFailed = 0;
  const consumers = Array.from({ length: connections }, async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const res = await fetch(`${base}/api/consumer/blogs?limit=20`, {
        headers: { "x-api-key": key },
      });
      await res.arrayBuffer();
      consumerMs.push(performance.now() - started);
      if (res.status !== 200) consumerFailed++;
    }
  });

  const saveMs: number[] = [];
  const statuses = new Map<number, number>();
  let saved = 0;
  const save = async (title: string) => {
    const answer = await admin<{ id: string }>("POST", `/workspaces/${workspace}/blogs`, {
      title,
      bodyMarkdown: ORDINARY_BODY,
    });
    saveMs.push(answer.ms);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    if (answer.status === 201) saved++;
    return answer.status === 201 ? answer.body.id : undefined;
  };
  const saver = (async () => {
    for (let i = 0; performance.now() < end; i++) await save(`A save ${w}.${i}`);
  })();

  const releases = new Map<string, number>();
  const releaser = (async () => {
    for (let i = 0; performance.now() < end; i++) {
      const next = performance.now() + 1000;
      const id = await save(`A release ${w}.${i}`);
      if (id !== undefined) {
        const started = performance.now();
        const answer = await admin(
          "POST",
          `/workspaces/${workspace}/blogs/${id}/release`,
          undefined,
          ANY_VERSION,
        );
        if (answer.status === 200) releases.set(id, started);
      }
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
  })();

  await Promise.all([...consumers, saver, releaser]);
  const graceEnd = performance.now() + DELIVERY_GRACE_MS;
  while ([...releases.keys()].some((id) => !receiver.arrivals.has(id))) {
    if (performance.now() > graceEnd) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const lags = [...releases].flatMap(([id, at]) => {
    const arrived = receiver.arrivals.get(id);
    return arrived === undefined ? [] : [arrived - at];
  });
  return {
    consumer: {
      count: consumerMs.length,
      p50: percentile(consumerMs, 50),
      p99: percentile(consumerMs, 99),
      max: Math.max(...consumerMs),
      failed: consumerFailed,
    },
    saves: {
      count: saveMs.length,
      ok: saved,
      p50: percentile(saveMs, 50),
      p99: percentile(saveMs, 99),
      statuses: [...statuses].map(([s, n]) => `${n}×${s}`).join(" "),
    },
    webhook: {
      count: releases.size,
      p50: percentile(lags, 50),
      max: lags.length === 0 ? Number.NaN : Math.max(...lags),
      missing: releases.size - lags.length,
      sinceWriteMax: Math.max(
        ...[...releases.keys()].map((id) => receiver.sinceWrite.get(id) ?? Number.NaN),
      ),
    },
  };
}
