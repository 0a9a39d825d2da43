import { invalid } from "../platform/domain-error.js";
import { checkUrlTemplate } from "../platform/url-template.js";

/** admin.yaml `PreviewUrl`: the longest template a workspace may set. */
export const PREVIEW_URL_MAX_LENGTH = 2000;

const PLACEHOLDERS = ["{token}", "{slug}", "{blogId}"] as const;

/**
 * A workspace's preview URL as set (admin.yaml `setPreviewUrl`): trimmed; null clears it. It is
 * opened by editors' browsers, never fetched by the server, so any http(s) host is fine — a
 * team's `http://localhost:4321` included — but credentials would travel in every editor's
 * history and a fragment never reaches the site's server, so both are refused; `{token}` must
 * be there or the site cannot exchange anything.
 */
export function checkPreviewUrl(raw: string | null): string | null {
  if (raw === null) return null;
  const template = raw.trim();
  if (template === "") return null;
  if (template.length > PREVIEW_URL_MAX_LENGTH) {
    throw invalid(`A preview URL has at most ${PREVIEW_URL_MAX_LENGTH} characters.`);
  }
  // Parsed with the placeholders filled, as the browser will see it.
  checkUrlTemplate(
    template,
    fillPreviewUrl(template, { token: "t", slug: "s", blogId: "b_1" }),
    "A preview URL",
    ": its server would not see it",
  );
  if (!template.includes("{token}")) {
    throw invalid("A preview URL must contain {token}, where the preview token goes.");
  }
  return template;
}

/** The values a preview link puts into its workspace's template. */
export interface PreviewLinkValues {
  readonly token: string;
  readonly slug: string;
  readonly blogId: string;
}

/**
 * The template with each placeholder replaced, everywhere it occurs, by its value
 * percent-encoded as a URL component (tokens, slugs and IDs are URL-safe already; encoding
 * keeps it so whatever they become).
 */
export function fillPreviewUrl(template: string, values: PreviewLinkValues): string {
  let url = template;
  for (const placeholder of PLACEHOLDERS) {
    const value = values[placeholder.slice(1, -1) as keyof PreviewLinkValues];
    url = url.replaceAll(placeholder, encodeURIComponent(value));
  }
  return url;
}
