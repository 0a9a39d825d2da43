/**
 * A webhook receiver: an Express app that verifies Pressroom's deliveries and handles each event
 * once. Run it, then add its URL as an endpoint in the dashboard (Webhooks → Add endpoint):
 *
 *   PRESSROOM_WEBHOOK_SECRET=whsec_… PORT=8080 npx tsx webhook-receiver.ts
 *
 * - the route takes the RAW body (`express.raw`): the signature covers the bytes as sent, and a
 *   body parsed by `express.json()` and serialised again is not those bytes;
 * - a delivery that fails verification (forged, altered, replayed more than 5 minutes late)
 *   gets 400 and is dropped;
 * - deliveries are at least once: the same event may arrive again (a lost answer, a
 *   redelivery), always with the same `webhook-id` — remember the IDs handled;
 * - answer 2xx quickly (within the server's timeout, 10 s by default) and do slow work after.
 */

import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "@pressroom/sdk";
import express from "express";

const secret = process.env.PRESSROOM_WEBHOOK_SECRET ?? "";
const handled = new Set<string>(); // use your database in production

async function onEvent(event: WebhookEvent): Promise<void> {
  switch (event.type) {
    case "blog.released":
    case "blog.updated":
    case "blog.unreleased":
    case "blog.removed":
      console.log(event.type, event.data.blogId, event.data.slug); // rebuild, purge a cache…
      break;
    case "webhook.test":
      console.log("test event for endpoint", event.data.endpointId);
      break;
  }
}

const app = express();
app.post("/hooks/pressroom", express.raw({ type: "application/json" }), async (req, res) => {
  let event: WebhookEvent;
  try {
    event = await verifyWebhook(secret, req.headers, req.body);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    res.status(400).json({ message: error.message });
    return;
  }
  if (!handled.has(event.id)) {
    handled.add(event.id);
    await onEvent(event);
  }
  res.status(204).end();
});
app.listen(Number(process.env.PORT ?? 8080));
