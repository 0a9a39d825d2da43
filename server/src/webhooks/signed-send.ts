import type { WebhookEndpointDoc, WebhookEventDoc } from "../platform/db/collections.js";
import { type EndpointsStore, SecretUnreadable } from "./endpoints-store.js";
import type { Send, SendOutcome } from "./safe-send.js";
import { eventBody, signedHeaders } from "./signing.js";

/** An attempt that was not sent, with why (for the delivery log). */
export const notSent = (error: string): SendOutcome => ({
  ok: false,
  statusCode: null,
  latencyMs: null,
  responseExcerpt: null,
  error,
});

/**
 * One attempt at sending `event` to `endpoint`: the body from the stored event (the same bytes
 * every time), signed now with the endpoint's keys (README, "Webhooks": signing), through
 * `send` (safe-send.ts). A secret sealed under another WEBHOOK_SECRETS_KEY is not sent, with a
 * message saying to rotate it; other faults are thrown.
 */
export function signedSender(
  endpoints: Pick<EndpointsStore, "signingKeys">,
  send: Send,
  limits: { readonly timeoutMs: number; readonly connectTimeoutMs: number },
) {
  return async (endpoint: WebhookEndpointDoc, event: WebhookEventDoc): Promise<SendOutcome> => {
    const body = eventBody(event);
    let keys: Buffer[];
    try {
      keys = await endpoints.signingKeys(endpoint);
    } catch (err) {
      if (err instanceof SecretUnreadable) return notSent(err.message);
      throw err;
    }
    return send({
      url: endpoint.url,
      headers: signedHeaders(event._id, Math.floor(Date.now() / 1000), body, keys),
      body,
      timeoutMs: limits.timeoutMs,
      connectTimeoutMs: limits.connectTimeoutMs,
    });
  };
}
