/**
 * A tiny Markdown → HTML renderer for the editor's live preview. Safe by construction: the whole
 * source is HTML-escaped first, and only a small set of tags is produced from it (headings,
 * paragraphs, bold, italic, inline and fenced code, blockquotes, lists, and links whose target is
 * http(s)). The published HTML is rendered by the server on save; this is only a preview.
 */

const escapeHtml = (s: string): string =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

const emphasis = (text: string): string =>
  text
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, "<strong>$1</strong>")
    .replace(/__(?=\S)([\s\S]*?\S)__/g, "<strong>$1</strong>")
    .replace(/\*(?=\S)([\s\S]*?\S)\*/g, "<em>$1</em>")
    .replace(/(^|\W)_(?=\S)([\s\S]*?\S)_(?!\w)/g, "$1<em>$2</em>");

/** Inline markup of already-escaped text. */
function inline(text: string): string {
  // Code spans and links are set aside first, so no markup is found inside code or URLs.
  const held: string[] = [];
  const hold = (html: string): string => `\uE000${held.push(html) - 1}\uE000`;
  const out = text
    .replace(/`([^`]+)`/g, (_m, code: string) => hold(`<code>${code}</code>`))
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, url: string) =>
      /^https?:\/\//i.test(url)
        ? hold(`<a href="${url}" rel="noopener noreferrer nofollow">${emphasis(label)}</a>`)
        : label,
    );
  return emphasis(out).replace(/\uE000(\d+)\uE000/g, (_m, i: string) => held[Number(i)] ?? "");
}

const LIST_ITEM = /^\s{0,3}(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s{0,3}```/;
const QUOTE = /^\s{0,3}&gt;\s?(.*)$/;

export function renderMarkdown(source: string): string {
  const lines = escapeHtml(source.replace(/\r\n?/g, "\n").replace(/\uE000/g, "")).split("\n");
  const html: string[] = [];
  let i = 0;
  const at = (n: number): string => lines[n] ?? "";
  while (i < lines.length) {
    const line = at(i);
    if (line.trim() === "") {
      i++;
    } else if (FENCE.test(line)) {
      const code: string[] = [];
      for (i++; i < lines.length && !FENCE.test(at(i)); i++) code.push(at(i));
      i++; // the closing fence (or the end)
      html.push(`<pre><code>${code.join("\n")}</code></pre>`);
    } else if (HEADING.test(line)) {
      const [, hashes = "#", text = ""] = HEADING.exec(line) ?? [];
      html.push(`<h${hashes.length}>${inline(text)}</h${hashes.length}>`);
      i++;
    } else if (QUOTE.test(line)) {
      const quoted: string[] = [];
      for (; i < lines.length && QUOTE.test(at(i)); i++) quoted.push(QUOTE.exec(at(i))?.[1] ?? "");
      html.push(`<blockquote><p>${inline(quoted.join(" "))}</p></blockquote>`);
    } else if (LIST_ITEM.test(line)) {
      const ordered = LIST_ITEM.exec(line)?.[2] !== undefined;
      const items: string[] = [];
      for (; i < lines.length; i++) {
        const m = LIST_ITEM.exec(at(i));
        if (m && (m[2] !== undefined) === ordered) items.push(m[3] ?? "");
        else if (m === null && /^\s{2,}\S/.test(at(i)) && items.length > 0) {
          items[items.length - 1] += ` ${at(i).trim()}`;
        } else break;
      }
      const tag = ordered ? "ol" : "ul";
      html.push(`<${tag}>${items.map((item) => `<li>${inline(item)}</li>`).join("")}</${tag}>`);
    } else {
      const para: string[] = [];
      for (; i < lines.length; i++) {
        const l = at(i);
        if (l.trim() === "" || FENCE.test(l) || HEADING.test(l) || QUOTE.test(l)) break;
        if (para.length > 0 && LIST_ITEM.test(l)) break;
        para.push(l.trim());
      }
      html.push(`<p>${inline(para.join("\n"))}</p>`);
    }
  }
  return html.join("\n");
}
