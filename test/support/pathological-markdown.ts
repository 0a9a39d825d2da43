/** The longest bodyMarkdown admin.yaml accepts. */
export const MAX_BODY = 200_000;

/**
 * Pathological Markdown, each family at the largest size the spec accepts: inputs on which
 * Markdown parsers have been quadratic or recursed without bound (emphasis delimiters, link
 * brackets, code-span backticks, nested blockquotes and lists, tables, raw HTML).
 */
export const fill = (unit: string, length = MAX_BODY) =>
  unit.repeat(Math.floor(length / unit.length)).slice(0, length);
export const PATHOLOGICAL: Record<string, string> = {
  "underscore emphasis (_a…)": fill("_a"),
  "star emphasis (*a…)": fill("*a"),
  "strong emphasis openers (**a…)": fill("**a"),
  "unclosed link brackets ([a…)": fill("[a"),
  "link openers with destinations ([a](…)": fill("[a]("),
  "nested link brackets ([[[…a]]]…)": `${"[".repeat(MAX_BODY / 2 - 1)}a${"]".repeat(MAX_BODY / 2 - 1)}`,
  "backtick runs of growing length": Array.from({ length: 600 }, (_, i) => "`".repeat(i + 1))
    .join(" ")
    .slice(0, MAX_BODY),
  "blockquote markers on one line (>>>…)": fill(">"),
  "nested blockquotes, one level per line": Array.from(
    { length: 400 },
    (_, i) => `${"> ".repeat(i + 1)}q`,
  )
    .join("\n")
    .slice(0, MAX_BODY),
  "nested lists, one level per line": Array.from(
    { length: 400 },
    (_, i) => `${"  ".repeat(i)}- item`,
  )
    .join("\n")
    .slice(0, MAX_BODY),
  "list markers on one line (- - - …)": fill("- "),
  "a wide table (2,000 columns × 40 rows)": [
    `|${" a |".repeat(2000)}`,
    `|${"---|".repeat(2000)}`,
    ...Array.from({ length: 40 }, () => `|${" b |".repeat(2000)}`),
  ]
    .join("\n")
    .slice(0, MAX_BODY),
  "unclosed raw HTML tags (<a <a …)": fill("<a "),
  "entity-like runs (&#&#…)": fill("&#"),
};
