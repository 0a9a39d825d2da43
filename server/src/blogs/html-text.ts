/**
 * The text of a body's sanitised HTML (blogs/render.ts), for what is derived from its words:
 * the reading time (reading-time.ts) and the consumer search's terms (text-search.ts). Tags are
 * word breaks, so markup, link addresses and image sources (attributes, alt text included) are
 * never text. The sanitiser writes characters as they are and escapes only `&`, `<`, `>` and
 * `"`, all of them word breaks, as is `&nbsp;`; a numeric character reference (a stored body may
 * hold one) is decoded. Linear in the length.
 */
export function textOfHtml(bodyHtml: string): string {
  return bodyHtml
    .replace(/<[^<>]*>/g, " ")
    .replace(/&#(x[0-9a-f]+|\d+);/gi, (_, code: string) => {
      const point = code[0] === "x" || code[0] === "X" ? Number.parseInt(code.slice(1), 16) : +code;
      return point > 0 && point <= 0x10ffff && (point < 0xd800 || point > 0xdfff)
        ? String.fromCodePoint(point)
        : " ";
    })
    .replace(/&[a-z][a-z0-9]*;/gi, " ");
}
