import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "@pressroom/sdk";
import { BLOGS_TAG, blogTag } from "./tags";

/** What `revalidateTag` of `next/cache` takes as its second argument (Next 16). */
export type RevalidateProfile = string | { expire?: number };

export interface RevalidatorOptions {
  /** The endpoint's signing secret as the dashboard showed it (`whsec_…`). */
  readonly secret: string;
  /** `revalidateTag` from `next/cache` (passed in so this module runs outside Next too). */
  readonly revalidateTag: (tag: string, profile: RevalidateProfile) => void;
  /**
   * How long stale data may still be served after an event. Default `{ expire: 0 }`: the next
   * request refetches, so an unreleased blog is gone from the next page view. `"max"` would serve
   * the old copy once more while refreshing in the background.
   */
  readonly profile?: RevalidateProfile;
}

/** The tags a verified event makes stale: a blog event its blog and every list; others none. */
export function tagsFor(event: WebhookEvent): string[] {
  switch (event.type) {
    case "blog.released":
    case "blog.updated":
    case "blog.unreleased":
    case "blog.removed":
      return [blogTag(event.data.blogId), BLOGS_TAG];
    default:
      // `webhook.test` (the dashboard's "Send test event"), and any event type added later.
      return [];
  }
}

/**
 * A route handler for Pressroom's webhook deliveries: 400 without revalidating anything unless
 * the raw body carries a valid Standard Webhooks signature by `secret` (timestamp within 5
 * minutes), otherwise revalidates the event's tags and answers 200 with them. Deliveries come at
 * least once; revalidating a tag again is harmless, so a repeated delivery needs no bookkeeping.
 */
export function createPressroomRevalidator(
  options: RevalidatorOptions,
): (request: Request) => Promise<Response> {
  const profile = options.profile ?? { expire: 0 };
  return async (request) => {
    // The raw body: the signature covers the bytes as sent, not JSON parsed and re-serialised.
    const body = await request.text();
    let event: WebhookEvent;
    try {
      event = await verifyWebhook(options.secret, request.headers, body);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return Response.json({ message: error.message }, { status: 400 });
    }
    const revalidated = tagsFor(event);
    for (const tag of revalidated) options.revalidateTag(tag, profile);
    return Response.json({ id: event.id, type: event.type, revalidated });
  };
}
