import type { WebhookAttempt, WebhookDelivery, WebhookEventType } from "../../api.js";

/** The events an endpoint can subscribe to, in the spec's order, with what each means. */
export const WEBHOOK_EVENTS: readonly { type: WebhookEventType; hint: string }[] = [
  { type: "blog.released", hint: "a blog becomes visible to consumers" },
  { type: "blog.updated", hint: "a released blog is edited" },
  { type: "blog.unreleased", hint: "a released blog goes back to draft" },
  { type: "blog.removed", hint: "a released blog is removed" },
];

export const ALL_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENTS.map((e) => e.type);

/** "HTTP 200", the error, or "in flight" for an attempt still waiting for its answer. */
export function attemptOutcome(a: WebhookAttempt): string {
  if (a.statusCode !== null) return `HTTP ${a.statusCode}`;
  if (a.error !== null) return a.error;
  return a.latencyMs === null ? "in flight" : "no answer";
}

/** Whether an attempt got a 2xx answer. */
export const attemptSucceeded = (a: WebhookAttempt): boolean =>
  a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300;

export const latencyText = (ms: number | null): string =>
  ms === null ? "—" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;

/** The delivery's state for people: "Pending", "Delivered", "Failed", "Skipped". */
export const stateText = (state: WebhookDelivery["state"]): string =>
  state.charAt(0).toUpperCase() + state.slice(1);

/**
 * The field a 400 of createWebhookEndpoint or updateWebhookEndpoint is about: "url" when the
 * server's message names the URL (its own check, or the validator's `request/body/url …`).
 */
export const problemField = (message: string): "url" | null =>
  /\burl\b/i.test(message) ? "url" : null;
