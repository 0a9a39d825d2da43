/**
 * The command-line options of the bench entry points (run.ts, db-scaling.ts,
 * render-isolation.ts), read with `node:util` `parseArgs` and checked: an unknown flag, a missing
 * value or a value that is not what the option takes is an error naming the option, and the
 * script exits with code 2 before it starts anything; `--help` prints the options and exits 0.
 * Defaults that depend on another option (`--quick`) are the caller's.
 */
import { parseArgs } from "node:util";

export type OptionSpec =
  | { kind: "flag"; help: string }
  | { kind: "string"; arg: string; help: string; choices?: readonly string[] }
  | { kind: "number"; arg: string; help: string; min: number; integer?: boolean }
  /** Comma-separated numbers, each as `number` checks it. */
  | { kind: "numbers"; arg: string; help: string; min: number; integer?: boolean }
  /** Comma-separated words, each one of `choices`. */
  | { kind: "words"; arg: string; help: string; choices: readonly string[] };

type ValueOf<S extends OptionSpec> = S extends { kind: "flag" }
  ? boolean
  : S extends { kind: "number" }
    ? number | undefined
    : S extends { kind: "numbers" }
      ? number[] | undefined
      : S extends { kind: "words" }
        ? string[] | undefined
        : string | undefined;

export type Values<Specs extends Record<string, OptionSpec>> = {
  [K in keyof Specs]: ValueOf<Specs[K]>;
};

export interface Program<Specs extends Record<string, OptionSpec>> {
  /** How the script is run, e.g. "npm run bench:render (npx tsx bench/render-isolation.ts)". */
  usage: string;
  /** One paragraph on what it does. */
  summary: string;
  options: Specs;
}

/** A bad command line; the message names the option and what it takes. */
export class UsageError extends Error {}

/** A number as an option takes it: digits, `_` allowed as a separator (`50_000`). */
function toNumber(name: string, raw: string, spec: { min: number; integer?: boolean }): number {
  const n = raw.trim() === "" ? Number.NaN : Number(raw.replaceAll("_", ""));
  const what = spec.integer ? "a whole number" : "a number";
  if (!Number.isFinite(n) || (spec.integer && !Number.isInteger(n)) || n < spec.min) {
    throw new UsageError(`--${name} takes ${what} of at least ${spec.min} (got "${raw}")`);
  }
  return n;
}

function oneOf(name: string, raw: string, choices: readonly string[]): string {
  if (!choices.includes(raw)) {
    throw new UsageError(`--${name} takes one of ${choices.join(", ")} (got "${raw}")`);
  }
  return raw;
}

function convert(name: string, spec: OptionSpec, raw: string | boolean | undefined): unknown {
  if (spec.kind === "flag") return raw === true;
  if (typeof raw !== "string") return undefined;
  const items = () => {
    const list = raw.split(",").map((s) => s.trim());
    if (list.some((s) => s === "")) throw new UsageError(`--${name}: an empty item in "${raw}"`);
    return list;
  };
  switch (spec.kind) {
    case "string":
      return spec.choices === undefined ? raw : oneOf(name, raw, spec.choices);
    case "number":
      return toNumber(name, raw, spec);
    case "numbers":
      return items().map((item) => toNumber(name, item, spec));
    case "words":
      return items().map((item) => oneOf(name, item, spec.choices));
  }
}

/** `--help`'s text: the usage line, the summary and one line per option. */
export function helpText<Specs extends Record<string, OptionSpec>>(program: Program<Specs>) {
  const rows = Object.entries(program.options).map(([name, spec]) => {
    const left = spec.kind === "flag" ? `--${name}` : `--${name} ${spec.arg}`;
    return `  ${left.padEnd(26)} ${spec.help}`;
  });
  return [`Usage: ${program.usage}`, "", program.summary, "", "Options:", ...rows, ""].join("\n");
}

/** The options of `argv`, checked; throws UsageError. `help` is true when --help was given. */
export function parseOptions<const Specs extends Record<string, OptionSpec>>(
  program: Program<Specs>,
  argv: string[],
): { help: boolean; values: Values<Specs> } {
  const config = Object.fromEntries(
    Object.entries(program.options).map(([name, spec]) => [
      name,
      { type: spec.kind === "flag" ? ("boolean" as const) : ("string" as const) },
    ]),
  );
  let parsed: Record<string, string | boolean | undefined>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...config, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    }).values as Record<string, string | boolean | undefined>;
  } catch (err) {
    // parseArgs's own messages name the option ("Unknown option '--x'", "Option '--y <value>'
    // argument missing"); its advice on `--` does not apply to these scripts.
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const values = Object.fromEntries(
    Object.entries(program.options).map(([name, spec]) => [
      name,
      convert(name, spec, parsed[name]),
    ]),
  ) as Values<Specs>;
  return { help: parsed.help === true, values };
}

/**
 * The options of this process's command line; on `--help` prints them and exits 0, on a bad
 * command line prints why (and how to get the list) and exits 2. `check` may throw UsageError
 * for rules between options.
 */
export function optionsOrExit<const Specs extends Record<string, OptionSpec>>(
  program: Program<Specs>,
  check: (values: Values<Specs>) => void = () => {},
  argv: string[] = process.argv.slice(2),
): Values<Specs> {
  try {
    const { help, values } = parseOptions(program, argv);
    if (help) {
      process.stdout.write(helpText(program));
      process.exit(0);
    }
    check(values);
    return values;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${err.message}\nRun with --help for the options.\n`);
    process.exit(2);
  }
}

/** Refuses two options given together (`why` says what the first one already does). */
export function refuseTogether(a: string, b: string, given: boolean, why: string): void {
  if (given) throw new UsageError(`--${a} and --${b} do not go together: ${why}`);
}
