import { jsonSafe, visible } from "../platform/terminal-text.js";

/**
 * CLI output: one JSON object on stdout with --json, readable text otherwise; notes on stderr.
 * Everything goes through `visible`/`jsonSafe` (platform/terminal-text.ts): text from input never writes
 * a control character or a bidi override to the operator's terminal.
 */
export interface Output {
  readonly json: boolean;
  result(value: object, text: string): void;
  note(line: string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(value, text) {
      process.stdout.write(json ? `${jsonSafe(JSON.stringify(value))}\n` : `${visible(text)}\n`);
    },
    note(line) {
      process.stderr.write(`${visible(line)}\n`);
    },
  };
}

/** A plain-text table with aligned columns. */
export function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return "(none)";
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

/** A blog as `blog list` prints it, in both modes (on the server's machine, and `--server`). */
export interface ListedBlog {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly status: string;
  readonly releasedAt: string | null;
  readonly updatedAt: string;
}

/** `blog list`'s output: a table, or `{blogs}` with --json. */
export function printBlogs(out: Output, blogs: readonly ListedBlog[]): void {
  out.result(
    { blogs },
    table(
      ["ID", "STATUS", "SLUG", "TITLE"],
      blogs.map((b) => [b.id, b.status, b.slug, b.title]),
    ),
  );
}
