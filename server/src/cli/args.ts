/** Parsed command-line input and the helpers that read it, for every command module. */

export class UsageError extends Error {
  override readonly name = "UsageError";
}

export interface CommandInput {
  /** e.g. ["key", "mint"] */
  readonly words: readonly string[];
  /** Positional arguments after the command words. */
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
}

export const required = (input: CommandInput, name: string): string => {
  const value = input.options[name];
  if (typeof value !== "string" || value.trim() === "")
    throw new UsageError(`--${name} is required.`);
  return value;
};
export const optional = (input: CommandInput, name: string): string | undefined => {
  const value = input.options[name];
  return typeof value === "string" ? value : undefined;
};
export const positional = (input: CommandInput, what: string): string => {
  const [value, ...rest] = input.args;
  if (value === undefined || rest.length > 0) throw new UsageError(`Expected exactly one ${what}.`);
  return value;
};
