import type { WebhookDelivery } from "../../api.js";

/** The log shown: the deliveries loaded so far, newest first, and the cursor after them. */
export interface Log {
  deliveries: WebhookDelivery[];
  nextCursor: string | null;
}

/** How often an open delivery log asks for its newest page while the page is visible. */
export const LOG_REFRESH_MS = 10_000;

/**
 * The log after a refresh of its first page (`fresh`): the newest deliveries as the server has
 * them now (new ones, and new states and attempts of the ones shown), and — when "Load more"
 * had brought older pages — those older deliveries after them, with their cursor, so a refresh
 * never takes away what was paged to. If more deliveries came than one page holds, the first
 * page no longer meets the older ones: the log starts again from it.
 */
export function withFreshFirstPage(shown: Log | null, fresh: Log): Log {
  const last = fresh.deliveries.at(-1);
  if (shown === null || last === undefined || fresh.nextCursor === null) return fresh;
  const at = shown.deliveries.findIndex((d) => d.id === last.id);
  if (at === -1) return fresh;
  const older = shown.deliveries.slice(at + 1);
  if (older.length === 0) return fresh;
  return { deliveries: [...fresh.deliveries, ...older], nextCursor: shown.nextCursor };
}

/** The log's filters: one state, one event type, or all (null). */
export interface DeliveryFilter {
  state: WebhookDelivery["state"] | null;
  event: WebhookDelivery["eventType"] | null;
}

export const matchesDelivery = (d: WebhookDelivery, f: DeliveryFilter): boolean =>
  (f.state === null || d.state === f.state) && (f.event === null || d.eventType === f.event);
