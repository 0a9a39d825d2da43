/**
 * The parts of a Ghost export (Ghost Admin → Settings → Migration → Export, or `GET
 * /ghost/api/admin/db/`) that the Ghost importer reads: `db[0].data` (or `data`, older
 * exports) with its posts, posts_meta (Ghost 5 and later: a post's SEO and social fields), tags,
 * posts_tags, posts_authors and users. Of a user only `USER_FIELDS` are ever read (its public
 * profile: name, slug, bio, website, profile image): never its email, password hash or anything
 * else; of a posts_meta row only `POST_META_FIELDS` (never its
 * email subject or other newsletter fields).
 */
import { ImportInputError } from "./import-set.js";
import { parseJsonSource, readJsonText } from "./json-source.js";

export type GhostRecord = Readonly<Record<string, unknown>>;

export interface GhostExport {
  readonly version: string;
  readonly posts: readonly GhostRecord[];
  /** Tag id → name. */
  readonly tagNames: ReadonlyMap<string, string>;
  /** Post id → its tag ids, in `sort_order`. */
  readonly postTags: ReadonlyMap<string, readonly string[]>;
  /** Post id → its author ids, in `sort_order`. */
  readonly postAuthors: ReadonlyMap<string, readonly string[]>;
  /** Post id → its posts_meta row, only `POST_META_FIELDS` (absent in exports before Ghost 5). */
  readonly postsMeta: ReadonlyMap<string, GhostRecord>;
  /** User id → its public profile (`USER_FIELDS`); nothing else of a user is read. */
  readonly users: ReadonlyMap<string, GhostUser>;
  /** The other tables of the export that hold rows (settings, newsletters, members…). */
  readonly otherTables: readonly string[];
}

/** What is read of a Ghost user: its public profile, never an email or anything else. */
export const USER_FIELDS = ["name", "slug", "bio", "website", "profile_image"] as const;

/** A Ghost user's public profile, each field a string or undefined (`USER_FIELDS`). */
export type GhostUser = { readonly [F in (typeof USER_FIELDS)[number]]?: string | undefined } & {
  readonly name: string;
};

/** What is read of a posts_meta row (or of a post, where older exports keep the same fields). */
export const POST_META_FIELDS = [
  "meta_title",
  "meta_description",
  "og_image",
  "og_title",
  "og_description",
  "twitter_image",
  "twitter_title",
  "twitter_description",
  "feature_image_alt",
] as const;

const isRecord = (v: unknown): v is GhostRecord =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const rows = (data: GhostRecord, table: string): GhostRecord[] => {
  const value = data[table];
  return Array.isArray(value) ? value.filter(isRecord) : [];
};

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** `table`'s rows grouped by `key`, each group's `value`s in `sort_order` (then file order). */
function grouped(data: GhostRecord, table: string, key: string, value: string) {
  const groups = new Map<string, { order: number; id: string }[]>();
  for (const row of rows(data, table)) {
    const from = str(row[key]);
    const to = str(row[value]);
    if (from === undefined || to === undefined) continue;
    const order = typeof row.sort_order === "number" ? row.sort_order : 0;
    groups.set(from, [...(groups.get(from) ?? []), { order, id: to }]);
  }
  const result = new Map<string, string[]>();
  for (const [from, list] of groups) {
    result.set(
      from,
      list.sort((a, b) => a.order - b.order).map((x) => x.id),
    );
  }
  return result;
}

/** The export in `file`, or an ImportInputError: unreadable, not JSON (line, column), not Ghost's. */
export async function loadGhostExport(file: string, maxBytes?: number): Promise<GhostExport> {
  const text = await readJsonText(file, file, maxBytes);
  const root = parseJsonSource(text.replace(/^\uFEFF/, ""), file);
  const db = isRecord(root) && Array.isArray(root.db) ? root.db[0] : root;
  const data = isRecord(db) ? db.data : undefined;
  if (!isRecord(data) || !Array.isArray(data.posts)) {
    throw new ImportInputError([
      {
        where: file,
        message:
          "is not a Ghost export: it has no db[0].data.posts (export the content from Ghost Admin → Settings → Migration → Export)",
      },
    ]);
  }
  const meta = isRecord(db) && isRecord(db.meta) ? db.meta : {};
  const tagNames = new Map<string, string>();
  for (const tag of rows(data, "tags")) {
    const id = str(tag.id);
    const name = str(tag.name);
    if (id !== undefined && name !== undefined) tagNames.set(id, name);
  }
  const users = new Map<string, GhostUser>();
  for (const user of rows(data, "users")) {
    const id = str(user.id);
    const name = str(user.name);
    if (id === undefined || name === undefined) continue;
    // Field by field, by name: nothing else of the row (its email above all) is ever copied.
    users.set(id, {
      name,
      slug: str(user.slug),
      bio: str(user.bio),
      website: str(user.website),
      profile_image: str(user.profile_image),
    });
  }
  const postsMeta = new Map<string, GhostRecord>();
  for (const row of rows(data, "posts_meta")) {
    const postId = str(row.post_id);
    if (postId === undefined) continue;
    postsMeta.set(postId, Object.fromEntries(POST_META_FIELDS.map((f) => [f, row[f]])));
  }
  const read = new Set([
    "posts",
    "posts_meta",
    "tags",
    "posts_tags",
    "posts_authors",
    "users",
    "roles_users",
  ]);
  return {
    version: str(meta.version) ?? "unknown",
    posts: data.posts.map((p: unknown) => (isRecord(p) ? p : {})),
    tagNames,
    postTags: grouped(data, "posts_tags", "post_id", "tag_id"),
    postAuthors: grouped(data, "posts_authors", "post_id", "author_id"),
    postsMeta,
    users,
    otherTables: Object.keys(data)
      .filter((t) => !read.has(t) && rows(data, t).length > 0)
      .sort(),
  };
}
