import type {
  Collections,
  WebhookAttemptDoc,
  WebhookDeliveryDoc,
} from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import type { SendOutcome } from "./safe-send.js";

/** What the attempt of an instance that stopped before finishing it says in the log. */
export const LOST_ATTEMPT = "lost: the instance sending it stopped";
/** Beyond the attempt's timeout, how long its instance holds it before another may take over. */
export const LEASE_MARGIN_MS = 30_000;

export type ClaimResult =
  /** This instance has the attempt: send it, then `finish` it before the lease ends. */
  | { readonly kind: "claimed"; readonly attempt: WebhookAttemptDoc }
  /** Another instance has it (or our read of the delivery was stale): leave it alone. */
  | { readonly kind: "busy" }
  /**
   * Attempt `attempt` was finished by an instance that stopped before it settled the delivery:
   * settle the delivery from it.
   */
  | { readonly kind: "unsettled"; readonly attempt: WebhookAttemptDoc }
  /** The last attempt was lost with its instance: the delivery has failed. */
  | { readonly kind: "exhausted"; readonly attempts: number };

const attemptId = (deliveryId: string, number: number): string =>
  `${deliveryId}#${String(number).padStart(2, "0")}`;

/** Taking attempts at deliveries, exactly once across instances. */
export interface AttemptClaims {
  /** Takes the delivery's next attempt, or says why not (`ClaimResult`). */
  claim(delivery: WebhookDeliveryDoc): Promise<ClaimResult>;
  /**
   * Records the outcome on the attempt, unless its lease has run out (another instance may
   * have taken over): returns whether it was written, and the delivery may be settled.
   */
  finish(attempt: WebhookAttemptDoc, outcome: SendOutcome): Promise<boolean>;
}

/**
 * On MongoDB and on the embedded database alike: an attempt is taken by inserting its document,
 * whose `_id` is the delivery's id and the attempt's number, and only one insert of an `_id` can
 * succeed. The taker holds a lease (the send's timeout + `LEASE_MARGIN_MS`); an attempt whose
 * lease ran out unfinished belongs to an instance that stopped: it is marked lost and counted,
 * and the next number is taken instead.
 */
export function attemptClaims(
  {
    webhookAttempts,
    webhookDeliveries,
  }: Pick<Collections, "webhookAttempts" | "webhookDeliveries">,
  options: { instanceId: string; timeoutMs: number; maxAttempts: number; now: () => number },
): AttemptClaims {
  const leaseMs = options.timeoutMs + LEASE_MARGIN_MS;

  return {
    async claim(delivery: WebhookDeliveryDoc): Promise<ClaimResult> {
      for (let number = delivery.attempts + 1; number <= options.maxAttempts; number++) {
        const now = options.now();
        const attempt: WebhookAttemptDoc = {
          _id: attemptId(delivery._id, number),
          deliveryId: delivery._id,
          endpointId: delivery.endpointId,
          number,
          instanceId: options.instanceId,
          startedAt: new Date(now),
          leaseUntil: new Date(now + leaseMs),
          finishedAt: null,
          latencyMs: null,
          statusCode: null,
          error: null,
          responseExcerpt: null,
        };
        try {
          await webhookAttempts.insertOne(attempt);
          return { kind: "claimed", attempt };
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const held = await webhookAttempts.findOne({ _id: attempt._id });
        if (held === null) return { kind: "busy" };
        if (held.finishedAt !== null) {
          // Settled by its owner a moment after finishing; unsettled long after: its owner stopped.
          return held.finishedAt.getTime() < now - LEASE_MARGIN_MS
            ? { kind: "unsettled", attempt: held }
            : { kind: "busy" };
        }
        if (held.leaseUntil.getTime() > now) return { kind: "busy" };
        // Its instance stopped mid-attempt (the receiver may or may not have got it): count it.
        // The owner never writes past its lease, so this write races no one.
        await webhookAttempts.updateOne(
          { _id: held._id, finishedAt: null, leaseUntil: held.leaseUntil },
          { $set: { finishedAt: new Date(now), error: LOST_ATTEMPT } },
        );
        await webhookDeliveries.updateOne(
          { _id: delivery._id, state: "pending" },
          { $max: { attempts: number } },
        );
      }
      return { kind: "exhausted", attempts: options.maxAttempts };
    },

    async finish(attempt: WebhookAttemptDoc, outcome: SendOutcome): Promise<boolean> {
      const now = options.now();
      if (now > attempt.leaseUntil.getTime()) return false;
      const { matchedCount } = await webhookAttempts.updateOne(
        { _id: attempt._id, instanceId: options.instanceId, finishedAt: null },
        {
          $set: {
            finishedAt: new Date(now),
            latencyMs: outcome.latencyMs,
            statusCode: outcome.statusCode,
            error: outcome.error === null ? null : logText(outcome.error),
            responseExcerpt: outcome.responseExcerpt,
          },
        },
      );
      return matchedCount === 1;
    },
  };
}

/** An error message as the delivery log shows it: one line, at most 500 characters. */
export const logText = (text: string): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  text.replace(/[\u0000-\u001f\u007f]/g, " ").slice(0, 500);
