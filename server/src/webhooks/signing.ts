import { createHash, createHmac } from "node:crypto";
import type { components } from "../../../openapi/generated/consumer.js";
import type { WebhookEventDoc } from "../platform/db/collections.js";
import { BASE62 } from "../platform/ids.js";

export type BlogEvent = components["schemas"]["BlogEvent"];
export type TestEvent = components["schemas"]["TestEvent"];

/** The `User-Agent` of every delivery. */
export const USER_AGENT = "Pressroom-Webhooks/1";

/**
 * The body of every attempt at delivering `event`: exactly the JSON of the spec's `BlogEvent`
 * or `TestEvent` (openapi/openapi.yaml), derived from the stored event alone, so every attempt
 * and every instance sends the same bytes.
 */
export function eventBody(event: WebhookEventDoc): string {
  const common = {
    id: event._id,
    occurredAt: event.occurredAt.toISOString(),
    workspaceId: event.workspaceId,
  };
  if (event.type === "webhook.test") {
    const test: TestEvent = {
      id: common.id,
      type: "webhook.test",
      occurredAt: common.occurredAt,
      workspaceId: common.workspaceId,
      data: { endpointId: event.endpointId ?? "" },
    };
    return JSON.stringify(test);
  }
  const blog: BlogEvent = {
    id: common.id,
    type: event.type,
    occurredAt: common.occurredAt,
    workspaceId: common.workspaceId,
    data: { blogId: event.blogId ?? "", slug: event.slug ?? "" },
  };
  return JSON.stringify(blog);
}

/**
 * The headers of one attempt, per Standard Webhooks: `webhook-id`, `webhook-timestamp` (Unix
 * seconds of this attempt) and `webhook-signature`, `v1,` + base64 HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` with each key (the current secret, and during the day after a
 * rotation the previous one too), space-separated.
 */
export function signedHeaders(
  id: string,
  timestampSeconds: number,
  body: string,
  keys: readonly Buffer[],
): Record<string, string> {
  const signed = `${id}.${timestampSeconds}.${body}`;
  const signatures = keys.map(
    (key) => `v1,${createHmac("sha256", key).update(signed).digest("base64")}`,
  );
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signatures.join(" "),
  };
}

/**
 * The delivery of `eventId` to `endpointId`: always the same id (`dlv_` + 22 base62 characters
 * of the pair's SHA-256, 128 bits), so a relay repeated after a crash inserts nothing twice.
 */
export function deliveryIdOf(eventId: string, endpointId: string): string {
  const digest = createHash("sha256").update(`${eventId}/${endpointId}`).digest();
  let n = BigInt(`0x${digest.subarray(0, 16).toString("hex")}`);
  let out = "";
  for (let i = 0; i < 22; i++) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return `dlv_${out}`;
}
