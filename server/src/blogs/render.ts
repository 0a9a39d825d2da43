import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";
import { readingTimeOf } from "./reading-time.js";

const markdown = new Marked({ gfm: true, async: false });

/** Blockquotes and list items may nest this deep (admin.yaml, `bodyMarkdown`). */
export const MAX_NESTING = 32;

/**
 * What a saved body is turned into: sanitised HTML, the plain-text excerpt derived from it, and
 * its reading time (reading-time.ts).
 */
export interface RenderedBody {
  bodyHtml: string;
  excerpt: string;
  readingTimeMinutes: number;
}

/** A body the renderer refuses: too deeply nested, or (in the pool) too slow to render. */
export type RenderRefusal = { reason: "nesting" | "timeout"; message: string };

const ALLOWED_TAGS = [
  ...sanitizeHtml.defaults.allowedTags,
  "img",
  "del",
  "ins",
  "sup",
  "sub",
  "input",
];

const LINK_SCHEMES = new Set(["http:", "https:", "mailto:"]);
const IMAGE_SCHEMES = new Set(["http:", "https:"]);

/** `url` as an absolute URL with one of `schemes`, or null (relative, protocol-relative, other). */
function absoluteUrl(url: string | undefined, schemes: ReadonlySet<string>): string | null {
  if (url === undefined || !/^[a-z][a-z0-9+.-]*:/i.test(url.trim())) return null;
  try {
    const parsed = new URL(url.trim());
    return schemes.has(parsed.protocol) ? url.trim() : null;
  } catch {
    return null;
  }
}

/**
 * The sanitiser's policy, applied to everything Markdown can produce (raw HTML included):
 * - elements: sanitize-html's default text elements plus img, del, ins, sup, sub and input
 *   (task-list checkboxes only: type checkbox, always disabled); no script, style, iframe, form, object or embed, no event handlers,
 *   no `style`, `id` or `name` attributes (no DOM clobbering on the consumer's page);
 * - links: absolute http(s) or mailto URLs only; any other href (relative, protocol-relative,
 *   `javascript:`, `data:`…) is dropped, the text kept; every link gets
 *   `rel="noopener noreferrer nofollow"`;
 * - images: absolute http(s) URLs only; an image with any other source is removed. Only `src`,
 *   `alt`, `title`, `width` and `height` are kept; `srcset`, `sizes`, `loading` and `decoding`
 *   are added after sanitising, to the workspace's library images only
 *   (media/body-image-sizes.ts).
 */
const POLICY: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ["href", "title", "rel"],
    img: ["src", "alt", "title", "width", "height"],
    code: ["class"],
    th: ["align"],
    td: ["align"],
    input: ["type", "checked", "disabled"],
    ol: ["start"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, { href, ...attribs }) => {
      const target = absoluteUrl(href, LINK_SCHEMES);
      return {
        tagName,
        attribs: {
          ...attribs,
          ...(target === null ? {} : { href: target }),
          rel: "noopener noreferrer nofollow",
        },
      };
    },
    // Task-list checkboxes only, and never enabled.
    input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, disabled: "" } }),
  },
  exclusiveFilter: (frame) =>
    (frame.tag === "img" && absoluteUrl(frame.attribs.src, IMAGE_SCHEMES) === null) ||
    (frame.tag === "input" && frame.attribs.type !== "checkbox"),
};

/** Markdown → sanitised HTML (see POLICY). Synchronous and unbounded: call `renderBody`. */
export function renderMarkdown(source: string): string {
  const html = markdown.parse(source, { async: false });
  return sanitizeHtml(html, POLICY).trim();
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CONTAINER_MARKER = /^[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]?/;

/**
 * How deep the blockquotes and list items of `source` nest, as far as a line's start shows it:
 * the container markers (`>`, `-`, `*`, `+`, `1.`) it opens with, plus its indentation in steps
 * of two columns when it opens with one. Lines in fenced code are skipped. Linear in the length.
 */
export function nestingDepth(source: string): { depth: number; line: number } {
  let deepest = { depth: 0, line: 0 };
  let fence: string | null = null;
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let rest = lines[i] ?? "";
    const opening = FENCE.exec(rest)?.[1];
    if (fence !== null) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length) {
        fence = null;
      }
      continue;
    }
    if (opening !== undefined) {
      fence = opening;
      continue;
    }
    const indent = /^[ \t]*/.exec(rest)?.[0].replace(/\t/g, "    ").length ?? 0;
    let markers = 0;
    for (let m = CONTAINER_MARKER.exec(rest); m !== null; m = CONTAINER_MARKER.exec(rest)) {
      markers++;
      rest = rest.slice(m[0].length);
      if (markers > MAX_NESTING) break;
    }
    const depth = markers === 0 ? 0 : markers + Math.floor(indent / 2);
    if (depth > deepest.depth) deepest = { depth, line: i + 1 };
  }
  return deepest;
}

/**
 * The whole render of a saved body: the nesting limit, Markdown → sanitised HTML, the excerpt.
 * Runs in the render pool's worker threads (render-worker.ts); a refusal is returned, not thrown.
 */
export function renderBody(source: string): RenderedBody | RenderRefusal {
  const { depth, line } = nestingDepth(source);
  if (depth > MAX_NESTING) {
    return {
      reason: "nesting",
      message: `bodyMarkdown nests blockquotes or lists more than ${MAX_NESTING} levels deep (line ${line}).`,
    };
  }
  try {
    const bodyHtml = renderMarkdown(source);
    return { bodyHtml, excerpt: excerptOf(bodyHtml), readingTimeMinutes: readingTimeOf(bodyHtml) };
  } catch (err) {
    // Deep recursion in the parser that the line check did not see (inline nesting).
    if (err instanceof RangeError) {
      return { reason: "nesting", message: "bodyMarkdown nests too deeply to be rendered." };
    }
    throw err;
  }
}

/** A plain-text summary: the first paragraph's text, cut at a word near `max` characters. */
export function excerptOf(bodyHtml: string, max = 200): string {
  const firstParagraph = /<p>([\s\S]*?)<\/p>/.exec(bodyHtml)?.[1] ?? bodyHtml;
  const text = sanitizeHtml(firstParagraph, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s.,;:!?-]+$/, "")}…`;
}

export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug === "" ? "blog" : slug;
}
