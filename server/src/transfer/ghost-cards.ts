/**
 * The Ghost cards with no Markdown form, as ghost-body.ts converts them: which card a node is
 * (its `kg-<kind>-card` class) and the Markdown it becomes (CARD_OUTCOMES says what, per kind).
 */

/** What the rules read of a node: turndown parses with domino, a DOM without the browser's types. */
interface CardElement {
  readonly nodeName: string;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): CardElement | null;
}

export const asElement = (node: unknown): CardElement => node as CardElement;

const classes = (node: CardElement): string[] => (node.getAttribute("class") ?? "").split(/\s+/);

const text = (node: CardElement | null): string =>
  (node?.textContent ?? "").replace(/\s+/g, " ").trim();

/** A Markdown link, its text escaped as turndown escapes text, its URL without spaces or `)`. */
function link(label: string, url: string, esc: (s: string) => string): string {
  const target = url.trim().replace(/[\s)]/g, (c) => encodeURIComponent(c));
  return `[${esc(label === "" ? target : label)}](${target})`;
}

/** How each kind of card was converted, for the notes. */
export const CARD_OUTCOMES: Readonly<Record<string, string>> = {
  bookmark: "a link",
  embed: "a link to the embedded page",
  video: "a link to the video",
  audio: "a link to the audio",
  file: "a link to the file",
  button: "a link",
  gallery: "its images",
  callout: "a quote",
  toggle: "a bold heading and its text",
  signup: "removed (a Ghost members form)",
  "members-only": "removed (the marker; the whole post is public once released)",
  product: "its text, image and link",
  header: "its headings and link",
  cta: "its text and link",
  other: "its text and links",
};

/** Cards turndown's own rules convert well (images, code), not counted. */
const PLAIN_CARDS = new Set(["image", "code", "markdown", "html"]);

export function cardKind(node: CardElement): string | null {
  const names = classes(node);
  if (!names.includes("kg-card")) return null;
  const kind = names.find((c) => /^kg-[a-z]+-card$/.test(c))?.slice(3, -5) ?? "other";
  if (PLAIN_CARDS.has(kind)) return null;
  return kind in CARD_OUTCOMES ? kind : "other";
}

/** A card's Markdown; `content` is its children as turndown converted them. */
export function cardMarkdown(
  kind: string,
  el: CardElement,
  content: string,
  esc: (s: string) => string,
): string {
  const caption = text(el.querySelector("figcaption"));
  const withCaption = (md: string) => (caption === "" ? md : `${md}\n\n${esc(caption)}`);
  const href = (selector: string) =>
    el.querySelector(selector)?.getAttribute("href") ??
    el.querySelector(selector)?.getAttribute("src") ??
    "";
  switch (kind) {
    case "bookmark": {
      const url = href("a");
      const title = text(el.querySelector(".kg-bookmark-title"));
      const description = text(el.querySelector(".kg-bookmark-description"));
      const line = url === "" ? esc(title) : link(title, url, esc);
      return withCaption(description === "" ? line : `${line} — ${esc(description)}`);
    }
    case "embed": {
      const url = href("iframe") || href("a");
      return url === "" ? withCaption("") : withCaption(link("Embedded content", url, esc));
    }
    case "video":
    case "audio": {
      const url = href(kind) || href("source");
      const title = text(el.querySelector(`.kg-${kind}-title`));
      const label = title || (kind === "video" ? "Video" : "Audio");
      return url === "" ? withCaption(esc(label)) : withCaption(link(label, url, esc));
    }
    case "file":
    case "button": {
      const url = href("a");
      const label = text(el.querySelector(".kg-file-card-title")) || text(el.querySelector("a"));
      return url === "" ? esc(label) : link(label, url, esc);
    }
    case "callout":
      return content
        .trim()
        .split("\n")
        .map((line) => (line === "" ? ">" : `> ${line}`))
        .join("\n");
    case "toggle": {
      const heading = text(el.querySelector(".kg-toggle-heading-text"));
      const body = el.querySelector(".kg-toggle-content");
      return `**${esc(heading)}**\n\n${body === null ? "" : esc(text(body))}`.trim();
    }
    case "signup":
      return "";
    default:
      return content.trim();
  }
}
