/**
 * A Ghost post's body as Pressroom Markdown (ghost-reader.ts). A body made only of Markdown cards
 * (lexical `markdown` nodes, or mobiledoc `markdown` cards of Ghost < 5) is taken verbatim;
 * any other body is Ghost's rendered `html` converted by turndown: headings, paragraphs,
 * emphasis, links, images, lists, fenced code with its language, quotes, rules. Tables, `u`,
 * `mark`, `sup` and `sub` stay HTML (the renderer keeps them, blogs/render.ts). Ghost cards with
 * no Markdown form become what the renderer can show, each counted for the import's notes:
 * bookmark, embed, video, audio, file and button cards → a link; gallery → its images; callout →
 * a quote; toggle → a bold heading and its text; signup and members-only marker → removed;
 * product, header, call-to-action and unknown cards → their text, headings and links.
 */
import TurndownService from "turndown";
import { asElement, cardKind, cardMarkdown } from "./ghost-cards.js";

export interface BodyConversion {
  readonly markdown: string;
  /** How the body was read: its Markdown cards verbatim, or its HTML converted. */
  readonly source: "markdown-cards" | "html";
  /** Ghost cards converted to something else, by kind (CARD_OUTCOMES). */
  readonly cards: ReadonlyMap<string, number>;
  /** How many `__GHOST_URL__` placeholders were made site-relative paths. */
  readonly ghostUrls: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * The Markdown of a post made only of Markdown cards (blank paragraphs aside), else null. Any
 * part not of the expected shape (null, a string where a list belongs…) means "not only Markdown
 * cards": the post's html is converted instead.
 */
export function markdownCardsOf(lexical: unknown, mobiledoc: unknown): string | null {
  const parsed = parseJson(lexical) ?? parseJson(mobiledoc);
  if (!isObject(parsed)) return null;
  const parts: string[] = [];
  if ("root" in parsed) {
    const root = parsed.root;
    if (!isObject(root) || !Array.isArray(root.children)) return null;
    for (const child of root.children as unknown[]) {
      if (!isObject(child)) return null;
      if (child.type === "markdown" && typeof child.markdown === "string") {
        parts.push(child.markdown);
      } else if (
        child.type !== "paragraph" ||
        (child.children !== undefined &&
          (!Array.isArray(child.children) || child.children.length > 0))
      )
        return null;
    }
  } else {
    const { sections, cards } = parsed;
    if (!Array.isArray(sections) || !Array.isArray(cards)) return null;
    for (const section of sections as unknown[]) {
      if (!Array.isArray(section)) return null;
      const card: unknown = section[0] === 10 ? cards[Number(section[1])] : undefined;
      const payload: unknown = Array.isArray(card) ? card[1] : undefined;
      if (
        Array.isArray(card) &&
        card[0] === "markdown" &&
        isObject(payload) &&
        typeof payload.markdown === "string"
      ) {
        parts.push(payload.markdown);
      } else if (section[0] !== 1 || (Array.isArray(section[2]) && section[2].length > 0)) {
        return null;
      }
    }
  }
  return parts.length === 0 ? null : parts.join("\n\n");
}

/**
 * Whether a post has content in its lexical or mobiledoc but no rendered `html` to convert (an
 * export of a Ghost that did not render it): its body cannot be read, rather than read as empty.
 */
export function htmlMissing(post: { lexical?: unknown; mobiledoc?: unknown; html?: unknown }) {
  if (typeof post.html === "string" && post.html.trim() !== "") return false;
  if (markdownCardsOf(post.lexical, post.mobiledoc) !== null) return false;
  const doc = parseJson(post.lexical) ?? parseJson(post.mobiledoc);
  if (doc === null || typeof doc !== "object") return false;
  const { root, sections } = doc as { root?: unknown; sections?: unknown };
  const parts = (isObject(root) ? root.children : undefined) ?? sections;
  const blank = (part: unknown) =>
    typeof part === "object" && part !== null && "children" in part
      ? Array.isArray(part.children) && part.children.length === 0
      : Array.isArray(part) && part[0] === 1 && Array.isArray(part[2]) && part[2].length === 0;
  return Array.isArray(parts) && !parts.every(blank);
}

function parseJson(value: unknown): unknown {
  if (typeof value !== "string" || value === "") return null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** A converter of Ghost bodies; one per import (its turndown service is reused). */
export function ghostBodyConverter(): (post: {
  lexical?: unknown;
  mobiledoc?: unknown;
  html?: unknown;
}) => BodyConversion {
  let counts = new Map<string, number>();
  const count = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    hr: "---",
    emDelimiter: "_",
    strongDelimiter: "**",
  });
  const esc = (s: string) => service.escape(s);
  service.remove(["script", "style", "noscript", "form"]);
  service.keep(["table", "u", "mark", "sup", "sub"]);
  service.addRule("strikethrough", {
    filter: ["del", "s"],
    replacement: (content) => `~~${content}~~`,
  });
  service.addRule("ghost-card", {
    filter: (node) => cardKind(asElement(node)) !== null,
    replacement: (content, node) => {
      const el = asElement(node);
      const kind = cardKind(el) ?? "other";
      count(kind);
      return `\n\n${cardMarkdown(kind, el, content, esc)}\n\n`;
    },
  });
  return (post) => {
    counts = new Map();
    const placeholders = (s: string) => s.split("__GHOST_URL__").length - 1;
    const cards = markdownCardsOf(post.lexical, post.mobiledoc);
    if (cards !== null) {
      const ghostUrls = placeholders(cards);
      const markdown = cards.replaceAll("__GHOST_URL__", "").trim();
      return { markdown, source: "markdown-cards", cards: counts, ghostUrls };
    }
    const html = typeof post.html === "string" ? post.html : "";
    if (html.includes("<!--members-only-->")) count("members-only");
    const markdown =
      html.trim() === "" ? "" : service.turndown(html.replaceAll("__GHOST_URL__", ""));
    return { markdown, source: "html", cards: counts, ghostUrls: placeholders(html) };
  };
}
