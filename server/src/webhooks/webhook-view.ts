import type {
  WebhookAttemptDoc,
  WebhookDeliveryDoc,
  WebhookEndpointDoc,
  WebhookHealthDoc,
} from "../platform/db/collections.js";
import type {
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
} from "../platform/http/admin-types.js";

const iso = (at: Date | null): string | null => (at === null ? null : at.toISOString());

/** What members who are not owners see of an endpoint's URL (admin.yaml, `WebhookEndpoint.url`). */
export const MASK = "…";

/**
 * The URL with the value of every query parameter (and any user name or password) replaced by
 * `…` (a part without `=`, which may be a bare token, whole): receivers often take a token there. Worked on the string as stored, so the rest reads
 * exactly as the owner typed it; never longer than the URL.
 */
export function maskedUrl(url: string): string {
  const query = url.indexOf("?");
  const base = query === -1 ? url : url.slice(0, query);
  const scheme = base.indexOf("://");
  const hostStart = scheme === -1 ? 0 : scheme + 3;
  const pathStart = base.indexOf("/", hostStart);
  const authority = base.slice(hostStart, pathStart === -1 ? undefined : pathStart);
  const at = authority.lastIndexOf("@");
  const head =
    at === -1
      ? base
      : `${base.slice(0, hostStart)}${MASK}@${authority.slice(at + 1)}${pathStart === -1 ? "" : base.slice(pathStart)}`;
  if (query === -1) return head;
  const params = url
    .slice(query + 1)
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      // A part without "=" may be a bare token itself (`?abc123`): masked whole.
      if (eq === -1) return part === "" ? part : MASK;
      return eq === part.length - 1 ? part : `${part.slice(0, eq)}=${MASK}`;
    });
  return `${head}?${params.join("&")}`;
}

/**
 * Stored endpoint and its health → the admin spec's `WebhookEndpoint`: ISO times, never the
 * sealed secret nor the previous one (only until when it still signs). `maskUrl` (readers who
 * are not owners): the URL's query values and user info masked (`maskedUrl`).
 */
export function toWebhookEndpoint(
  doc: WebhookEndpointDoc,
  health: WebhookHealthDoc | undefined,
  now: number = Date.now(),
  maskUrl = false,
): WebhookEndpoint {
  const previousUntil = doc.previousSecretExpiresAt;
  return {
    id: doc._id,
    url: maskUrl ? maskedUrl(doc.url) : doc.url,
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
