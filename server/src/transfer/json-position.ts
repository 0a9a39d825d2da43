/**
 * Where a JSON text stops being JSON, as `line:column` (1-based), for an importer's error. The
 * engine's own message names a position on some Node versions and none on others ("Unexpected
 * token 'x', "x" is not valid JSON"), so the text is scanned again, only when parsing failed.
 */

/** `text` parsed, or where it stops being JSON (1-based line and column) and why. */
export function parseJsonLocated(
  text: string,
): { ok: true; value: unknown } | { ok: false; line: number; column: number; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    // The engine's words, less its own position (some Node versions give one, others not).
    const words = err instanceof Error ? err.message : "";
    const reason = words
      .replace(/,? ".*" is not valid JSON$/s, "")
      .replace(/ (?:in JSON )?at position \d+.*$/s, "");
    const offset = firstErrorOffset(text);
    const { line, column } = lineColumn(text, offset);
    return { ok: false, line, column, message: `not valid JSON (${reason}).` };
  }
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

class Stop {
  constructor(readonly offset: number) {}
}

/** The offset of the first character that makes `text` not JSON (its length if it ends early). */
export function firstErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw new Stop(i);
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text.charAt(i))) i++;
  };
  const expect = (c: string) => (text.charAt(i) === c ? i++ : fail());
  const string = () => {
    expect('"');
    while (i < text.length && text.charAt(i) !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail();
      if (text.charAt(i) === "\\") {
        i++;
        if (text.charAt(i) === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if ('"\\/bfnrt'.includes(text.charAt(i)) && i < text.length) i++;
        else fail();
      } else i++;
    }
    expect('"');
  };
  const value = (): void => {
    space();
    const c = text.charAt(i);
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      if (text.charAt(i) === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === "{") {
          space();
          string();
          space();
          expect(":");
        }
        value();
        space();
        if (text.charAt(i) === ",") i++;
        else {
          expect(close);
          return;
        }
      }
    }
    if (c === '"') {
      string();
      return;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(i, i + 400),
    );
    if (literal === null || literal[0] === "") fail();
    i += literal?.[0].length ?? 0;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
  } catch (err) {
    if (err instanceof Stop) return err.offset;
    return 0; // nested too deeply to scan: the start is all that can be said
  }
  return text.length;
}
