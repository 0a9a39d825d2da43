import { createHash } from "node:crypto";
import type { Filter } from "mongodb";
import type { BlogDoc } from "../platform/db/collections.js";
import { invalid } from "../platform/domain-error.js";
import type { TagFilter } from "./tag-filter.js";
import { parseTextSearch, type TextSearch, textMatches, textSearchFilter } from "./text-search.js";

/**
 * What narrows the consumer list (openapi.yaml, `listBlogs`): the tag set, `featured`, and the
 * archive range of `releasedAt` (at or after `releasedFrom`, before `releasedBefore`). `key`
 * names the representation (it goes into the ETag: "" for the plain list, `tags=` and the tag
 * set's key for a tag set alone, as before the other filters existed); `scope` binds a cursor to it
 * (null for the plain list, the tag set's scope for a tag set alone, as before this filter
 * existed; blogs/cursor.ts).
 */
export interface ListFilter {
  readonly tags: TagFilter | null;
  /** `q`, parsed (text-search.ts). */
  readonly search: TextSearch | null;
  /**
   * `author`: the slug sent, and the ID of the workspace's author who has it, or `""` when none
   * has it (no blog names `""`: an empty list, as openapi.yaml says).
   */
  readonly author: { readonly slug: string; readonly id: string } | null;
  readonly featured: boolean | null;
  readonly releasedFrom: Date | null;
  readonly releasedBefore: Date | null;
  readonly key: string;
  readonly scope: string | null;
}

/** The plain list: every released blog. */
export const NO_FILTER: ListFilter = {
  tags: null,
  search: null,
  author: null,
  featured: null,
  releasedFrom: null,
  releasedBefore: null,
  key: "",
  scope: null,
};

/**
 * RFC 3339's date-time (the spec's `format: date-time`, as its validator reads it: `T` or a
 * space, `Z` or an offset, a fraction of any length, a leap second).
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/**
 * An RFC 3339 date-time → the first millisecond at or after the instant it names, which is what
 * both bounds compare with (stored times are whole milliseconds: `t ≥ x` and `t < x` hold for
 * exactly the same `t` as with the exact instant). A leap second (`:60`) names the instant the
 * next minute starts, as no stored time falls inside it. Null when it is not one.
 */
export function instantOf(text: string): Date | null {
  const m = DATE_TIME.exec(text);
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, fraction = "", zulu, sign, oh = "0", om = "0"] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // setUTCFullYear, not Date.UTC: that reads years 0–99 as 1900–1999.
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month, 0);
  if (month < 1 || month > 12 || day < 1 || day > calendar.getUTCDate()) return null;
  if (hour > 23 || minute > 59 || second > 60 || Number(oh) > 23 || Number(om) > 59) return null;
  const offset = zulu === undefined ? (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  // Within a leap second no stored time falls: all of it compares as the next minute's start.
  const leap = second === 60;
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, leap ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0")));
  // A fraction finer than a millisecond moves the instant past the millisecond it is in.
  const beyond = !leap && /[1-9]/.test(fraction.slice(3)) ? 1 : 0;
  at.setTime(at.getTime() - offset * 60_000 + beyond);
  return Number.isNaN(at.getTime()) ? null : at;
}

const instantParameter = (name: string, value: string | undefined): Date | null => {
  if (value === undefined) return null;
  const at = instantOf(value);
  if (at === null) {
    throw invalid(
      `Invalid query parameter ${name}: use an RFC 3339 date-time with its offset, such as 2026-01-01T00:00:00Z.`,
    );
  }
  return at;
};

/** The list's query parameters besides `tag` (already parsed: tag-filter.ts), as sent. */
export interface ListParameters {
  /** The author's slug, with the ID it names in the workspace (`""`: none). */
  readonly author?: { readonly slug: string; readonly id: string } | undefined;
  readonly q?: string | undefined;
  readonly featured?: boolean | undefined;
  readonly releasedAfter?: string | undefined;
  readonly releasedBefore?: string | undefined;
}

/** The list's filter from its parameters; a bad time or an empty range is a 400 naming them. */
export function parseListFilter(tags: TagFilter | null, sent: ListParameters): ListFilter {
  const featured = sent.featured ?? null;
  const author = sent.author ?? null;
  const search = sent.q === undefined ? null : parseTextSearch(sent.q);
  const releasedFrom = instantParameter("releasedAfter", sent.releasedAfter);
  const releasedBefore = instantParameter("releasedBefore", sent.releasedBefore);
  if (releasedFrom !== null && releasedBefore !== null && releasedBefore <= releasedFrom) {
    throw invalid(
      "Invalid query parameters releasedAfter and releasedBefore: releasedBefore must be later than releasedAfter.",
    );
  }
  if (
    search === null &&
    author === null &&
    featured === null &&
    releasedFrom === null &&
    releasedBefore === null
  ) {
    return tags === null
      ? NO_FILTER
      : { ...NO_FILTER, tags, key: `tags=${tags.key}`, scope: tags.scope };
  }
  const parts = [
    tags === null ? "" : tags.key,
    featured === null ? "" : String(featured),
    releasedFrom?.toISOString() ?? "",
    releasedBefore?.toISOString() ?? "",
    // Only with an author or a search, so every other filter keeps the key (and ETags,
    // cursors) it had before they existed.
    ...(author === null && search === null ? [] : [author?.slug ?? ""]),
    ...(search === null ? [] : [search.key]),
  ];
  const key = `filter=${JSON.stringify(parts)}`;
  const scope = createHash("sha256").update(key, "utf8").digest("base64url").slice(0, 16);
  return { tags, search, author, featured, releasedFrom, releasedBefore, key, scope };
}

/**
 * The consumer list's query: released blogs of the workspace that pass `filter`. The key order
 * is the query's shape (indexes `released_list`, `released_by_tag`, `released_author`,
 * `released_featured`, `released_search`; platform/db/indexes.ts). `featured: false` matches
 * blogs stored before the field existed too. Null when nothing can match (a search without a
 * word): no query is sent.
 */
export function releasedFilter(workspaceId: string, filter: ListFilter): Filter<BlogDoc> | null {
  const { search } = filter;
  if (search !== null && search.prefix === null) return null;
  const query: Filter<BlogDoc> = { workspaceId, status: "released" };
  if (filter.featured !== null) query.featured = filter.featured ? true : { $ne: true };
  if (filter.tags !== null) query.tags = { $in: [...filter.tags.tags] };
  if (filter.author !== null) query.authorIds = filter.author.id;
  if (search?.prefix != null) query.$and = textSearchFilter({ ...search, prefix: search.prefix });
  if (filter.releasedFrom !== null || filter.releasedBefore !== null) {
    query.releasedAt = {
      ...(filter.releasedFrom === null ? {} : { $gte: filter.releasedFrom }),
      ...(filter.releasedBefore === null ? {} : { $lt: filter.releasedBefore }),
    };
  }
  return query;
}

/** Whether a blog as the preview perspective shows it passes `filter` (preview-reads.ts). */
export function passes(
  filter: ListFilter,
  blog: Pick<BlogDoc, "title" | "excerpt" | "bodyHtml" | "tags" | "featured" | "authorIds"> & {
    releasedAt: Date;
  },
): boolean {
  const tags = filter.tags;
  if (tags !== null && !blog.tags.some((tag) => tags.tags.includes(tag))) return false;
  const author = filter.author;
  if (author !== null && !(blog.authorIds ?? []).includes(author.id)) return false;
  if (filter.featured !== null && (blog.featured ?? false) !== filter.featured) return false;
  if (filter.releasedFrom !== null && blog.releasedAt < filter.releasedFrom) return false;
  if (filter.releasedBefore !== null && blog.releasedAt >= filter.releasedBefore) return false;
  return filter.search === null || textMatches(filter.search, blog);
}
