import { revalidateTag } from "next/cache";
import { createPressroomRevalidator } from "../../../lib/revalidator";

/**
 * POST /api/pressroom-webhook: the URL to add as an endpoint in Pressroom's dashboard
 * (Webhooks → Add endpoint). Verifies each delivery with the SDK's `verifyWebhook` and
 * revalidates the cache tags of the blog it names and of the lists.
 */
export const POST = createPressroomRevalidator({
  secret: process.env.PRESSROOM_WEBHOOK_SECRET ?? "",
  revalidateTag,
});
