/** CLI output: one JSON object on stdout with --json, readable text otherwise; notes on stderr. */
export interface Output {
  readonly json: boolean;
  result(value: object, text: string): void;
  note(line: string): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(value, text) {
      process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
    },
    note(line) {
      process.stderr.write(`${line}\n`);
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
