import { adminLimits } from "../../../../openapi/generated/admin-limits.js";

const LIMITS = adminLimits.setPublicFeeds.linkTemplate;
export const TEMPLATE_MAX = LIMITS.maxLength;
export const TEMPLATE_EXAMPLE = "https://example.com/blog/{slug}";
const SCHEME = new RegExp(LIMITS.pattern);

/**
 * The form's own check of a feeds' link template, on submit: admin.yaml's `FeedLinkTemplate`
 * (an absolute http(s) URL, no credentials, no fragment, `{slug}` in it, within its length).
 * The server checks it again and has the last word; its 400 lands on the same field.
 */
export function checkLinkTemplate(value: string): string | null {
  const template = value.trim();
  if (template.length < LIMITS.minLength) {
    return `Enter the address of a blog's page on your site, like ${TEMPLATE_EXAMPLE}.`;
  }
  if (template.length > TEMPLATE_MAX) {
    return `Use at most ${TEMPLATE_MAX} characters (now ${template.length}).`;
  }
  if (!SCHEME.test(template)) return "Start with http:// or https://, with no spaces.";
  // The placeholders are not URL characters everywhere (a host): parse with sample values.
  const sample = template.replaceAll("{slug}", "slug").replaceAll("{id}", "id");
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    return `Enter a full address, like ${TEMPLATE_EXAMPLE}.`;
  }
  if (url.username !== "" || url.password !== "") {
    return "Take out the user name and password (the part up to @): feeds are public.";
  }
  if (template.includes("#")) return "Take out the # and what follows it.";
  if (!template.includes("{slug}")) return "Put {slug} where the blog's slug goes in the address.";
  return null;
}
