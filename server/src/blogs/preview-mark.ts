import type { BlogDoc } from "../platform/db/collections.js";
import { randomBase62 } from "../platform/ids.js";

/**
 * The preview changes feed's mark (openapi.yaml, "Preview"; preview/preview-feed.ts), as the
 * live feed's `feedPending` is the live one's: set in the same update as **every** write of a
 * blog — a draft's edit, a staged edit, a schedule, a state change — since each changes what the
 * preview perspective shows. `previewMark` is new on every such write, so the recorder clears a
 * mark only if no write came after the one it recorded (its compare-and-set).
 */
export const previewMarked = (): Pick<BlogDoc, "previewPending" | "previewMark"> => ({
  previewPending: true,
  previewMark: randomBase62(12),
});

/** A marked blog as the preview recorder reads it: enough to clear its mark, no more. */
export type PreviewMarkOf = Pick<BlogDoc, "_id"> & { readonly previewMark?: string | undefined };
