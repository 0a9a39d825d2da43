import { open } from "node:fs/promises";
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import { IMPORT_MAX_BYTES_DEFAULT } from "../platform/config.js";
import { ImportInputError } from "./import-set.js";

const cannotRead = (name: string, err: unknown): ImportInputError =>
  new ImportInputError([
    {
      where: name,
      message: `cannot be read (${err instanceof Error ? err.message : String(err)})`,
    },
  ]);

/**
 * The text of the JSON file `file` (named `name` in problems), refused unread when it is larger
 * than `maxBytes` (its size as the open file reports it, before anything is read).
 */
export async function readJsonText(
  file: string,
  name: string,
  maxBytes = IMPORT_MAX_BYTES_DEFAULT,
): Promise<string> {
  const handle = await open(file, "r").catch((err: unknown) => {
    throw cannotRead(name, err);
  });
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) {
      throw new ImportInputError([
        {
          where: name,
          message: `is ${size.toLocaleString("en")} bytes, over the ${maxBytes.toLocaleString("en")}-byte limit of a JSON import (IMPORT_MAX_BYTES); not read`,
        },
      ]);
    }
    return await handle.readFile("utf8").catch((err: unknown) => {
      throw cannotRead(name, err);
    });
  } finally {
    await handle.close();
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf("\n");
  return { line: before.split("\n").length, column: offset - lastBreak };
}

/**
 * `text` parsed as strict JSON; a syntax error is an ImportInputError located as
 * `name:line:column`. JSON.parse decides; jsonc-parser (no comments, no trailing commas) only
 * locates what it refused, because Node's messages do not always give a position.
 */
export function parseJsonSource(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const errors: ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false });
    const first = errors[0];
    const position = /at position (\d+)/.exec((err as Error).message)?.[1];
    const offset = first?.offset ?? (position === undefined ? 0 : Number(position));
    const { line, column } = lineColumn(text, offset);
    const reason = first === undefined ? (err as Error).message : printParseErrorCode(first.error);
    throw new ImportInputError([
      { where: `${name}:${line}:${column}`, message: `not valid JSON (${reason}).` },
    ]);
  }
}
