/**
 * The Ghost importer's reader (`pressroom import --from ghost`): a Ghost export's posts as blogs.
 * Only parses and maps (import-set.ts); the mapping:
 * - posts of type "post" → blogs, sourceKey `ghost:<post id>`, slug kept (one not in Pressroom's
 *   form is slugified, with a note); pages → skipped; staff users → skipped, never accounts: a
 *   post's users (posts_authors by sort_order, at most 10) become its authors by name and slug
 *   (the first one's name its author name too), with their bio, website and profile image
 *   (as the avatar) when the workspace gets them new; the URLs by the cover's rule, else dropped
 *   with a note. Never a user's email or anything else (ghost-export.ts `USER_FIELDS`);
 * - published → released at `published_at`; draft → draft (a post published then pulled back
 *   too: releasedAt stays empty, as the contract's "set exactly when released" says); scheduled
 *   → draft with its release scheduled at its `published_at` (admin.yaml, "Schedules"), or, when
 *   that time has passed or is more than 366 days ahead, a draft and a note; sent (email-only) →
 *   draft;
 * - tags in sort_order, Ghost's internal `#` tags dropped, in Pressroom's normal form;
 * - custom_excerpt → excerpt, else derived; feature_image → cover when an absolute http(s) URL without a user name or password;
 * - the SEO and social fields (posts_meta, or the post in older exports) by ghost-presentation.ts;
 * - bodies by ghost-body.ts; Ghost's times ("YYYY-MM-DD HH:MM:SS", UTC) as they are;
 * - with `--media-dir` (Ghost's `content/images`), the images on the Ghost site in bodies and covers
 *   are the set's images (ghost-images.ts).
 */

import { normaliseTag } from "@pressroom/tag-rule";
import { slugOfName } from "../authors/author-rules.js";
import { MAX_AHEAD_MS } from "../blogs/blog-schedule.js";
import { slugify } from "../blogs/render.js";
import { type BodyConversion, ghostBodyConverter, htmlMissing } from "./ghost-body.js";
import { CARD_OUTCOMES } from "./ghost-cards.js";
import { type GhostRecord, type GhostUser, loadGhostExport, str } from "./ghost-export.js";
import { ghostImages } from "./ghost-images.js";
import { ghostPresentation, ghostUrl, oneLine } from "./ghost-presentation.js";
import { LIMITS } from "./import-checks.js";
import { TOKENS } from "./import-images.js";
import {
  type ImportAuthor,
  type ImportAuthorRef,
  type ImportBlog,
  ImportInputError,
  type ImportProblem,
  type ImportReader,
  type SkippedEntry,
} from "./import-set.js";

const GHOST_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?(Z|[+-]\d{2}:\d{2})?$/;

/** A Ghost timestamp as a Date (UTC when it names no zone), or null when absent or malformed. */
export function ghostTime(value: unknown): Date | null {
  if (typeof value === "number") {
    // Milliseconds since 1970; beyond ±8.64e15 (or NaN, Infinity) not a time.
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  if (typeof value !== "string" || !GHOST_TIME.test(value)) return null;
  const date = new Date(
    `${value.replace(" ", "T")}${/(Z|[+-]\d{2}:\d{2})$/.test(value) ? "" : "Z"}`,
  );
  return Number.isNaN(date.getTime()) ? null : date;
}

const GHOST_STATUSES = new Set(["published", "draft", "scheduled", "sent"]);

export const readGhostExport: ImportReader = async (source, options) => {
  const ghost = await loadGhostExport(source, options.maxJsonBytes);
  const now = (options.now ?? new Date()).getTime();
  const convert = ghostBodyConverter();
  const images = ghostImages(options.mediaDir);
  /** The `feature_image` of each blog read, for its cover once the images are checked. */
  const featureImages = new Map<ImportBlog, string | undefined>();
  const blogs: ImportBlog[] = [];
  const skipped: SkippedEntry[] = [];
  const problems: ImportProblem[] = [];
  const notes: string[] = [];
  const cardCounts = new Map<string, number>();
  const bySource = { html: 0, "markdown-cards": 0 };
  const ghostUrlPosts: string[] = [];
  const membersOnly: string[] = [];
  let internalTags = 0;
  const slugOwners = new Map<string, string>();
  /** The users posts name, by Ghost user id, as the set's authors (in the order first named). */
  const authorsByUser = new Map<string, ImportAuthor>();
  const total = ghost.posts.length;
  const step = Math.max(1, Math.floor(total / 100));

  ghost.posts.forEach((post, i) => {
    readPost(post, i);
    if ((i + 1) % step === 0 || i + 1 === total) options.onProgress?.("reading", i + 1, total);
  });

  function readPost(post: GhostRecord, i: number): void {
    const where = `posts[${i}] "${str(post.slug) ?? str(post.title) ?? "?"}"`;
    const problem = (message: string) => problems.push({ where, message });
    if (post.type === "page" || post.page === true || post.page === 1) {
      skipped.push({ origin: where, reason: "a Ghost page, not a post (pages are not imported)" });
      return;
    }
    const id = str(post.id);
    const title = oneLine(str(post.title));
    const slug = str(post.slug) ?? "";
    const status = str(post.status) ?? "";
    const createdAt = ghostTime(post.created_at);
    const publishedAt = ghostTime(post.published_at);
    if (id === undefined || id === "") problem("has no id");
    if (title === "") problem("has no title");
    if (slug === "") problem("has no slug");
    if (!GHOST_STATUSES.has(status)) problem(`has an unknown status "${status}"`);
    if (createdAt === null) problem(`created_at "${String(post.created_at)}" is not a time`);
    if (post.published_at != null && publishedAt === null) {
      problem(`published_at "${String(post.published_at)}" is not a time`);
    }
    if (status === "published" && post.published_at == null)
      problem("is published but has no published_at");
    const pressroomSlug = slugify(slug);
    if (slug !== "" && pressroomSlug !== slug) {
      notes.push(
        `${where}: slug "${slug}" is not in Pressroom's form; imported as "${pressroomSlug}".`,
      );
    }
    const owner = slugOwners.get(pressroomSlug);
    if (slug !== "" && owner !== undefined) {
      problem(`slug "${pressroomSlug}" is also the slug of ${owner}`);
    }
    slugOwners.set(pressroomSlug, where);

    const tags: string[] = [];
    for (const tagId of ghost.postTags.get(id ?? "") ?? []) {
      const name = ghost.tagNames.get(tagId);
      if (name === undefined) continue;
      if (name.startsWith("#")) {
        internalTags++;
        continue;
      }
      const normal = normaliseTag(name);
      if (!normal.ok) problem(normal.problem);
      else if (normal.tag !== "" && !tags.includes(normal.tag)) tags.push(normal.tag);
    }
    const userIds = ghost.postAuthors.get(id ?? "") ?? [str(post.author_id) ?? ""];
    const authorId = userIds[0];
    const authorName = oneLine(ghost.users.get(authorId ?? "")?.name) || "Pressroom";
    const authors: ImportAuthorRef[] = [];
    for (const userId of userIds) {
      const author = authorOfUser(userId);
      if (author !== null && !authors.some((a) => a.slug === author.slug)) {
        authors.push({ name: author.name, slug: author.slug });
      }
    }
    if (authors.length > LIMITS.authors) {
      notes.push(
        `${where}: has ${authors.length} authors; the first ${LIMITS.authors} are imported (a blog names at most ${LIMITS.authors}).`,
      );
      authors.length = LIMITS.authors;
    }
    const presentation = ghostPresentation(post, ghost.postsMeta.get(id ?? ""));
    const featureImage = str(post.feature_image);
    const cover = images.onSite(featureImage)
      ? { url: null, note: null }
      : ghostUrl(featureImage, "feature image", "no cover");
    if (cover.note !== null) notes.push(`${where}: ${cover.note}`);
    for (const note of presentation.notes) notes.push(`${where}: ${note}`);

    let body: BodyConversion;
    try {
      if (htmlMissing(post))
        problem("has content in lexical or mobiledoc but no rendered html to convert");
      body = convert(post);
    } catch (err) {
      // A body this reader cannot take apart (e.g. crafted lexical): named, never a stack trace.
      problem(`body could not be converted: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    bySource[body.source]++;
    images.collect(body.markdown, featureImage, presentation.fields.coverImageAlt ?? "", where);
    for (const [kind, n] of body.cards) cardCounts.set(kind, (cardCounts.get(kind) ?? 0) + n);
    if (body.ghostUrls > 0) ghostUrlPosts.push(where);
    if (str(post.visibility) !== undefined && post.visibility !== "public") membersOnly.push(where);
    const toCome =
      publishedAt !== null &&
      publishedAt.getTime() > now &&
      publishedAt.getTime() - now <= MAX_AHEAD_MS;
    if (status === "scheduled" && publishedAt !== null && toCome) {
      notes.push(
        `${where}: scheduled in Ghost for ${publishedAt.toISOString()}; imported as a draft released at that time.`,
      );
    } else if (status === "scheduled" && publishedAt !== null) {
      notes.push(
        `${where}: scheduled in Ghost for ${publishedAt.toISOString()}, ${publishedAt.getTime() <= now ? "a time that has passed" : "more than 366 days ahead"}; imported as a draft with nothing scheduled.`,
      );
    } else if (status === "draft" && publishedAt !== null) {
      notes.push(
        `${where}: published in Ghost on ${publishedAt.toISOString()}, then made a draft again; imported as a draft.`,
      );
    } else if (status === "sent") {
      notes.push(`${where}: sent by email only in Ghost (never on the site); imported as a draft.`);
    }
    const released = status === "published";
    const excerpt = oneLine(str(post.custom_excerpt));
    const blog: ImportBlog = {
      sourceKey: `ghost:${id}`,
      origin: where,
      title,
      slug: pressroomSlug,
      status: released ? "released" : "draft",
      bodyMarkdown: body.markdown,
      excerpt: excerpt || undefined,
      tags,
      authorName,
      authors,
      coverImageUrl: cover.url,
      ...presentation.fields,
      createdAt: createdAt ?? new Date(0),
      updatedAt: ghostTime(post.updated_at) ?? createdAt ?? new Date(0),
      releasedAt: released ? publishedAt : null,
      removedAt: null,
      ...(status === "scheduled" && toCome ? { publishAt: publishedAt } : {}),
    };
    blogs.push(blog);
    featureImages.set(blog, featureImage);
  }
  /**
   * The user `userId` as an author (its public profile only), made once; null for a user the
   * export does not have. A slug not in Pressroom's form is slugified, with a note.
   */
  function authorOfUser(userId: string): ImportAuthor | null {
    const made = authorsByUser.get(userId);
    if (made !== undefined) return made;
    const user: GhostUser | undefined = ghost.users.get(userId);
    if (user === undefined) return null;
    const name = oneLine(user.name);
    const where = `users "${user.slug ?? name}"`;
    const given = user.slug?.trim() || undefined;
    const slug = given === undefined ? slugOfName(name) : slugify(given);
    if (given !== undefined && slug !== given) {
      notes.push(`${where}: slug "${given}" is not in Pressroom's form; imported as "${slug}".`);
    }
    // An author's URLs take at most LIMITS.authorUrl characters (admin.yaml `AuthorUrlInput`).
    const short = (found: { url: string | null; note: string | null }, what: string) =>
      found.url !== null && found.url.length > LIMITS.authorUrl
        ? { url: null, note: `${what} longer than ${LIMITS.authorUrl} characters, not imported.` }
        : found;
    const avatar = short(
      ghostUrl(user.profile_image, "profile image", "no avatar"),
      "profile image",
    );
    const website = short(ghostUrl(user.website, "website", "no website"), "website");
    for (const note of [avatar.note, website.note])
      if (note !== null) notes.push(`${where}: ${note}`);
    let bio = user.bio?.trim() || null;
    if (bio !== null && bio.length > LIMITS.bio) {
      notes.push(`${where}: bio longer than ${LIMITS.bio} characters, not imported.`);
      bio = null;
    }
    const author: ImportAuthor = {
      name,
      slug,
      bio,
      avatarUrl: avatar.url,
      websiteUrl: website.url,
    };
    authorsByUser.set(userId, author);
    return author;
  }
  const checked = await images.check();
  problems.push(...checked.problems);
  if (problems.length > 0) throw new ImportInputError(problems);
  const imageNotes: string[] = [];
  const withImages = blogs.map((blog): ImportBlog => {
    const bodyMarkdown = images.body(blog.bodyMarkdown, blog.origin, imageNotes);
    const cover = images.cover(featureImages.get(blog), blog.origin, imageNotes);
    return { ...blog, bodyMarkdown, ...(cover === undefined ? {} : { coverImageUrl: cover }) };
  });
  // The images the blogs name (of a size copy and its original found, the original only).
  const named = new Set(
    withImages.flatMap((b) =>
      [b.bodyMarkdown, b.coverImageUrl ?? ""].flatMap((t) => t.match(TOKENS) ?? []),
    ),
  );
  const used = checked.images.filter((image) => named.has(image.token));

  for (const [userId, user] of ghost.users) {
    skipped.push({
      origin: `users "${user.name}"`,
      reason: authorsByUser.has(userId)
        ? `a Ghost staff user (${userId}), not imported as an account: the author of its posts, by name and slug, with its bio, website and profile image (never its email)`
        : `a Ghost staff user (${userId}), not imported: it is the author of no imported post`,
    });
  }
  notes.unshift(
    `Ghost ${ghost.version}: ${blogs.length} posts read (${bySource["markdown-cards"]} bodies from Markdown cards as they are, ${bySource.html} converted from HTML).`,
  );
  for (const [kind, n] of [...cardCounts].sort()) {
    notes.push(`${n} Ghost ${kind} card(s) converted to ${CARD_OUTCOMES[kind] ?? "text"}.`);
  }
  if (internalTags > 0) notes.push(`${internalTags} Ghost internal tag(s) (#…) not imported.`);
  if (ghostUrlPosts.length > 0) {
    notes.push(
      `${ghostUrlPosts.length} post(s) link to their own Ghost site (__GHOST_URL__), kept as site-relative paths, which Pressroom's renderer does not link or show (relative links lose their target, relative images are dropped): ${ghostUrlPosts.join(", ")}.`,
    );
  }
  if (membersOnly.length > 0) {
    notes.push(
      `${membersOnly.length} post(s) were for members only in Ghost; Pressroom has no members: once released, they are served to every consumer of the workspace: ${membersOnly.join(", ")}.`,
    );
  }
  if (ghost.otherTables.length > 0) {
    notes.push(`Not imported (no Pressroom counterpart): ${ghost.otherTables.join(", ")}.`);
  }
  // One author per slug (two Ghost users with one slug: the first named).
  const authors: ImportAuthor[] = [];
  for (const author of authorsByUser.values()) {
    if (!authors.some((a) => a.slug === author.slug)) authors.push(author);
  }
  if (used.length > 0) notes.push(`${used.length} image(s) from --media-dir, for the library.`);
  notes.push(...imageNotes);
  return {
    format: "ghost",
    blogs: withImages,
    authors,
    skipped,
    notes,
    ...(used.length === 0 ? {} : { images: used }),
  };
};
