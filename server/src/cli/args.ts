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

/**
 * A yes/no option given as `--NAME` or `--no-NAME` (both defined as booleans in main.ts): true,
 * false, or undefined when neither is given (a create's default, an update's "keep").
 */
export const yesNo = (input: CommandInput, name: string): boolean | undefined => {
  const yes = input.options[name] === true;
  const no = input.options[`no-${name}`] === true;
  if (yes && no) throw new UsageError(`Give --${name} or --no-${name}, not both.`);
  return yes ? true : no ? false : undefined;
};

/**
 * The presentation and search fields a blog's create or update sets (admin.yaml `BlogInput`),
 * from their options; an option not given is absent.
 */
export const presentationOptions = (input: CommandInput) => ({
  coverImageAlt: optional(input, "cover-image-alt"),
  featured: yesNo(input, "featured"),
  metaTitle: optional(input, "meta-title"),
  metaDescription: optional(input, "meta-description"),
  canonicalUrl: optional(input, "canonical-url"),
  socialImageUrl: optional(input, "social-image-url"),
});
