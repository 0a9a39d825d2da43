import type { Collections } from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import type { EndpointsStore } from "./endpoints-store.js";
import type { SendOutcome } from "./safe-send.js";

/** An endpoint whose every attempt failed for this long is turned off (openapi.yaml, "Webhooks"). */
export const DISABLE_AFTER_MS = 86_400_000;

/**
 * After writing a success, an instance writes the next ones of the endpoint only this much
 * later (unless a failure came between): a busy endpoint costs a health write per few seconds,
 * not per delivery. `lastSuccessAt` may lag by as much.
 */
export const SUCCESS_WRITE_EVERY_MS = 5000;

/** "2026-11-24 10:00 UTC". */
const minuteUtc = (at: Date): string => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** What the failed attempt got, in a few words: "HTTP 503", or why no answer came. */
const lastOutcome = (outcome: SendOutcome): string =>
  outcome.statusCode !== null ? `HTTP ${outcome.statusCode}` : outcome.error.slice(0, 200);

/**
 * Why the server turned an endpoint off, for its owner (the endpoint's `disabledReason`).
 */
export const disabledReasonOf = (failingSince: Date, outcome: SendOutcome): string =>
  `Every delivery since ${minuteUtc(failingSince)} failed (last: ${lastOutcome(outcome)}). ` +
  "Fix the receiver, then turn the endpoint back on.";

/**
 * Endpoints' delivery health (`webhookHealth`, written by the delivery worker only): the last
 * success, and since when every attempt has failed. A failure that finds the endpoint failing
 * for `DISABLE_AFTER_MS` turns it off, saying why.
 */
export interface EndpointHealth {
  /** Records a successful attempt: the endpoint is failing no more. */
  succeeded(endpointId: string): Promise<void>;
  /** Records a failed attempt; returns whether the endpoint was turned off by it. */
  failed(endpointId: string, outcome: SendOutcome): Promise<boolean>;
}

export function endpointHealth(
  { webhookHealth }: Pick<Collections, "webhookHealth">,
  endpoints: Pick<EndpointsStore, "disable">,
  now: () => number,
): EndpointHealth {
  /** Endpoint id → when this instance last wrote a success of it. */
  const successWritten = new Map<string, number>();
  return {
    async succeeded(endpointId: string): Promise<void> {
      const at = now();
      if (
        at - (successWritten.get(endpointId) ?? Number.NEGATIVE_INFINITY) <
        SUCCESS_WRITE_EVERY_MS
      ) {
        // Only `lastSuccessAt` waits: a failure recorded meanwhile (by any instance) is cleared
        // now, or it would stand for an endpoint that has succeeded since.
        await webhookHealth.updateOne(
          { _id: endpointId, failingSince: { $ne: null } },
          { $set: { lastSuccessAt: new Date(at), failingSince: null } },
        );
        return;
      }
      successWritten.set(endpointId, at);
      await webhookHealth.updateOne(
        { _id: endpointId },
        { $set: { lastSuccessAt: new Date(at), failingSince: null } },
        { upsert: true },
      );
    },

    async failed(endpointId: string, outcome: SendOutcome): Promise<boolean> {
      successWritten.delete(endpointId);
      const at = new Date(now());
      // `$min` cannot start the count: null sorts before every date. Start it where it is unset.
      try {
        await webhookHealth.updateOne(
          { _id: endpointId },
          { $setOnInsert: { lastSuccessAt: null, failingSince: at } },
          { upsert: true },
        );
      } catch (err) {
        // Another instance inserted it at the same moment: the update below does the rest.
        if (!isDuplicateKey(err)) throw err;
      }
      await webhookHealth.updateOne(
        { _id: endpointId, failingSince: null },
        { $set: { failingSince: at } },
      );
      const health = await webhookHealth.findOne({ _id: endpointId });
      const since = health?.failingSince ?? null;
      if (since === null || at.getTime() - since.getTime() < DISABLE_AFTER_MS) return false;
      await endpoints.disable(endpointId, disabledReasonOf(since, outcome));
      return true;
    },
  };
}
