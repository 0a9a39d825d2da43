/**
 * BENCHMARKS.md is written by more than one hand: bench/run.ts writes the whole file,
 * bench/db-scaling.ts owns one section of it, between `<!-- db-scaling:start -->` and
 * `<!-- db-scaling:end -->`, bench/rate-limit-cost.ts another (`rate-limits`), bench/fairness.ts
 * another (`fairness`), bench/editorial.ts another (`editorial`), bench/schedules.ts another
 * (`schedules`), bench/site-builders.ts another (`site-builders`), bench/ghost.ts another (`ghost`). The lab notes, between `<!-- lab-notes:start -->` and
 * `<!-- lab-notes:end -->` (what was measured to choose how the benches measure), and the
 * `by-hand` section (figures of benches that only print them, and the setup and CI times) are
 * written by people. These helpers put a section in place and carry it over when the rest of the file
 * is written again.
 */
import { readFile } from "node:fs/promises";

export const DB_SCALING = "db-scaling";
export const LAB_NOTES = "lab-notes";
/** Written by bench/rate-limit-cost.ts. */
export const RATE_LIMITS = "rate-limits";
/** Written by bench/fairness.ts. */
export const FAIRNESS = "fairness";
/** Written by bench/editorial.ts. */
export const EDITORIAL = "editorial";
/** Written by bench/schedules.ts. */
export const SCHEDULES = "schedules";
/** Written by bench/site-builders.ts. */
export const SITE_BUILDERS = "site-builders";
/** Written by people: bench:webhooks and bench:import figures, setup and CI times. */
export const BY_HAND = "by-hand";
/** bench/media.ts: uploads, the first copy, serving against a static file server. */
export const MEDIA = "media";
/** bench/ghost.ts: Pressroom's consumer API beside Ghost's Content API. */
export const GHOST = "ghost";
/** Written by people: bench/media-library.ts's figures (it only prints them), after MEDIA's. */
export const MEDIA_LIBRARY = "media-library";

const markers = (name: string) => ({
  start: `<!-- ${name}:start -->`,
  end: `<!-- ${name}:end -->`,
});

/** The section `name` of `text`, markers included, or null when it has none. */
export function sectionOf(text: string, name: string): string | null {
  const { start, end } = markers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  return from < 0 || to < 0 ? null : text.slice(from, to + end.length);
}

/** `text` with section `name` replaced by `body` (wrapped in its markers), or appended. */
export function withSection(text: string, name: string, body: string): string {
  const { start, end } = markers(name);
  const section = `${start}\n${body.trim()}\n${end}`;
  const old = sectionOf(text, name);
  if (old !== null) return text.replace(old, () => section);
  return `${text.trimEnd()}\n\n${section}\n`;
}

/** `fresh` (a newly generated file) keeping the sections of `name` that `old` had. */
export function keepSections(old: string, fresh: string, names: readonly string[]): string {
  let out = fresh;
  for (const name of names) {
    const section = sectionOf(old, name);
    if (section !== null && sectionOf(out, name) === null) {
      out = `${out.trimEnd()}\n\n${section}\n`;
    }
  }
  return out;
}

/** The file's text, or "" when it does not exist. */
export async function readOrEmpty(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw err;
  }
}
