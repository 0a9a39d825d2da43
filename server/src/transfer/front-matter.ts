/**
 * A Markdown file's front matter: YAML (1.2, the `yaml` package) between a `---` line at the very
 * top and the next `---` (or `...`) line. Its problems and its keys carry their line in the file.
 */
import { isMap, isScalar, LineCounter, parseDocument } from "yaml";

export interface FrontMatter {
  /** The top-level keys and their values; empty when the file has no front matter. */
  readonly fields: ReadonlyMap<string, unknown>;
  /** The line of each top-level key, in the file (1-based). */
  readonly lines: ReadonlyMap<string, number>;
  /** The file after its front matter. */
  readonly body: string;
  /** The body's first line, in the file. */
  readonly bodyLine: number;
}

export interface LineProblem {
  readonly line: number;
  readonly message: string;
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/m;

/** `text` split into its front matter and body, or the problems that stop it being read. */
export function parseFrontMatter(
  text: string,
): { ok: true; value: FrontMatter } | { ok: false; problems: LineProblem[] } {
  const opened = OPEN.exec(text);
  if (opened === null) {
    return { ok: true, value: { fields: new Map(), lines: new Map(), body: text, bodyLine: 1 } };
  }
  const rest = text.slice(opened[0].length);
  const close = CLOSE.exec(rest);
  if (close === null) {
    return {
      ok: false,
      problems: [
        { line: 1, message: "front matter opened with --- is never closed by a --- line" },
      ],
    };
  }
  const yamlText = rest.slice(0, close.index);
  const afterClose = rest.slice(close.index + close[0].length).replace(/^\r?\n/, "");
  const yamlLines = yamlText.split("\n").length - 1;
  const bodyLine = 2 + yamlLines + 1;
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false });
  // Lines in the file: the opening --- is line 1, so YAML's line 1 is the file's line 2.
  const lineAt = (offset: number) => lineCounter.linePos(offset).line + 1;
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((e) => ({
        line: lineAt(e.pos[0]),
        message: `front matter is not valid YAML: ${e.message.split("\n")[0]}`,
      })),
    };
  }
  const fields = new Map<string, unknown>();
  const lines = new Map<string, number>();
  if (doc.contents === null)
    return { ok: true, value: { fields, lines, body: afterClose, bodyLine } };
  if (!isMap(doc.contents)) {
    const offset = doc.contents.range?.[0] ?? 0;
    return {
      ok: false,
      problems: [
        { line: lineAt(offset), message: "front matter must be a mapping of keys to values" },
      ],
    };
  }
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      problems: [{ line: 2, message: `front matter cannot be read: ${message}` }],
    };
  }
  const values = js as Record<string, unknown>;
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const offset = isScalar(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
    fields.set(key, values[key]);
    lines.set(key, lineAt(offset));
  }
  return { ok: true, value: { fields, lines, body: afterClose, bodyLine } };
}
