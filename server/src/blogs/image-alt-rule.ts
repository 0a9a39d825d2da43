/**
 * A blog is released only when every library image it shows has alt text there (README,
 * "Media"): the cover's `coverImageAlt`, a body image's `alt` (`![alt](url)`, or the library's
 * alt text, which a render fills in when the Markdown gives none). Images from elsewhere are the
 * writer's own affair. Checked on the version being made live: a release, a publish of pending
 * changes, a blog created released, and a scheduled release or publish when its time comes
 * (which then fails as a taken slug does). Imports are not checked: they move content that is
 * released already.
 */
import { type ImageContent, imagesWithoutAlt } from "../media/body-images.js";
import { conflict, type DomainError } from "../platform/domain-error.js";

const MAX_NAMED = 5;

/** Why `content` may not be made live, or null when it may. */
export function altTextRefusal(content: ImageContent): DomainError | null {
  const missing = imagesWithoutAlt(content);
  if (missing.length === 0) return null;
  const named = [...new Map(missing.map((m) => [`${m.where}:${m.mediaId}`, m])).values()];
  const list = named
    .slice(0, MAX_NAMED)
    .map((m) => (m.where === "cover" ? `the cover (${m.name})` : m.name))
    .join(", ");
  const more = named.length > MAX_NAMED ? ` and ${named.length - MAX_NAMED} more` : "";
  return conflict(
    `Library images need alt text before the blog is released: ${list}${more}. Describe each image (the cover's alt text, or ![description](url) in the body).`,
  );
}

/** Throws `altTextRefusal(content)` when there is one. */
export function requireAltText(content: ImageContent): void {
  const refusal = altTextRefusal(content);
  if (refusal !== null) throw refusal;
}
