import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from "../admin-api-types.js";
import type {
  WebhookAttemptDoc,
  WebhookDeliveryDoc,
  WebhookEndpointDoc,
  WebhookHealthDoc,
} from "../db/collections.js";

const iso = (at: Date | null): string | null => (at === null ? null : at.toISOString());

/**
 * Stored endpoint and its health → the admin spec's `WebhookEndpoint`: ISO times, never the
 * sealed secret nor the previous one (only until when it still signs).
 */
export function toWebhookEndpoint(
  doc: WebhookEndpointDoc,
  health: WebhookHealthDoc | undefined,
  now: number = Date.now(),
): WebhookEndpoint {
  const previousUntil = doc.previousSecretExpiresAt;
  return {
    id: doc._id,
    url: doc.url,
    description: doc.description,
    events: [...doc.events],
    enabled: doc.enabled,
    disabledReason: doc.disabledReason,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
    secretRotatedAt: iso(doc.secretRotatedAt),
    // Null once past: the previous secret no longer signs (and is deleted at its next use).
    previousSecretExpiresAt:
      previousUntil !== null && previousUntil.getTime() > now ? previousUntil.toISOString() : null,
    lastSuccessAt: iso(health?.lastSuccessAt ?? null),
    failingSince: iso(health?.failingSince ?? null),
  };
}

/** Stored attempt → `WebhookAttempt` (which instance made it and its lease stay inside). */
export function toWebhookAttempt(doc: WebhookAttemptDoc): WebhookAttempt {
  return {
    number: doc.number,
    startedAt: doc.startedAt.toISOString(),
    latencyMs: doc.latencyMs,
    statusCode: doc.statusCode,
    error: doc.error,
    responseExcerpt: doc.responseExcerpt,
  };
}

/** Stored delivery and its attempts (newest first) → `WebhookDelivery`. */
export function toWebhookDelivery(
  doc: WebhookDeliveryDoc,
  attempts: readonly WebhookAttemptDoc[],
): WebhookDelivery {
  return {
    id: doc._id,
    eventId: doc.eventId,
    eventType: doc.eventType,
    blogId: doc.blogId,
    state: doc.state,
    redeliveryOf: doc.redeliveryOf,
    createdAt: doc.createdAt.toISOString(),
    nextAttemptAt: iso(doc.nextAttemptAt),
    attempts: attempts.map(toWebhookAttempt),
  };
}
