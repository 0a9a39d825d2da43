import { invalid } from "../platform/domain-error.js";
import { checkUrlTemplate } from "../platform/url-template.js";

/** admin.yaml `FeedLinkTemplate`: the longest template a workspace may set. */
export const LINK_TEMPLATE_MAX_LENGTH = 2000;

/**
 * A workspace's feed link template as set (admin.yaml `setPublicFeeds`): trimmed, an absolute
 * http(s) URL once `{slug}` and `{id}` are filled, with no credentials (every feed reader would
 * be handed them) and no fragment (a page is what a feed links), holding `{slug}`.
 */
export function checkLinkTemplate(raw: string): string {
  const template = raw.trim();
  if (template.length > LINK_TEMPLATE_MAX_LENGTH) {
    throw invalid(`A link template has at most ${LINK_TEMPLATE_MAX_LENGTH} characters.`);
  }
  checkUrlTemplate(
    template,
    fillLinkTemplate(template, { slug: "s", id: "b_1" }),
    "A link template",
    "",
  );
  if (!template.includes("{slug}")) {
    throw invalid("A link template must contain {slug}, where each blog's slug goes.");
  }
  return template;
}

/**
 * A blog's page: the template with `{slug}` and `{id}` replaced, everywhere they occur, by the
 * blog's slug and ID percent-encoded as URL components (both are URL-safe already; encoding
 * keeps it so whatever they become).
 */
export function fillLinkTemplate(template: string, blog: { slug: string; id: string }): string {
  return template
    .replaceAll("{slug}", encodeURIComponent(blog.slug))
    .replaceAll("{id}", encodeURIComponent(blog.id));
}

/** The site's home page: the template's origin, as feeds name it. */
export const homeOf = (template: string): string =>
  `${new URL(fillLinkTemplate(template, { slug: "s", id: "b_1" })).origin}/`;
