import type { Presentation } from "../blogs/blog-rules.js";
import type { BlogStatus } from "../platform/db/collections.js";
import type { DomainErrorCode } from "../platform/domain-error.js";
import type { ImportImage } from "./import-images.js";

/**
 * What every importer reads a source into, and what `applyImport` (import-apply.ts) writes:
 * one format-neutral list of blogs. Readers (pressroom-format.ts, ghost-reader.ts,
 * markdown-reader.ts) only parse and map; they never touch the database.
 */
/**
 * The presentation and search fields (blog-rules.ts `PRESENTATION_FIELDS`) carried as the source
 * has them: text as read (trimmed when stored, blank → null), URLs absolute http(s) or null,
 * `featured` false when the source says nothing.
 */
export interface ImportBlog extends Readonly<Presentation> {
  /**
   * The entry's stable identity in its source, which re-imports match on: `pressroom:<blog id>`,
   * `ghost:<post id>`, `markdown:<path relative to the folder, with />`. The blog's id in
   * Pressroom is derived from it and the workspace id, so importing again finds the same blog.
   */
  readonly sourceKey: string;
  /** Where it came from, for messages: `posts[3] "same-title"`, `notes/a.md`. */
  readonly origin: string;
  readonly title: string;
  /** Already in Pressroom's slug form (blog-rules.ts `checkSlug`). */
  readonly slug: string;
  readonly status: BlogStatus;
  readonly bodyMarkdown: string;
  /** Undefined: derived from the body, as when a blog is written without one. */
  readonly excerpt: string | undefined;
  /** In normal form (@pressroom/tag-rule), distinct. */
  readonly tags: readonly string[];
  readonly authorName: string;
  /**
   * The authors the blog names, in order (the first the primary), matched by slug in the
   * workspace (README, "Import and export"). Undefined: the source says nothing of authors (a
   * new blog names none, an existing one keeps its own); empty: none.
   */
  readonly authors?: readonly ImportAuthorRef[] | undefined;
  /** An absolute http(s) URL, or null. */
  readonly coverImageUrl: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Set exactly when status is "released" (or was released before removal, if known). */
  readonly releasedAt: Date | null;
  readonly removedAt: Date | null;
  /**
   * A draft's release scheduled in the source (a Ghost post scheduled for a time to come): the
   * blog is released then (admin.yaml, "Schedules"). Absent or null: none.
   */
  readonly publishAt?: Date | null;
}

/** An author an entry names: a slug in Pressroom's form (what the import matches on) and a name. */
export interface ImportAuthorRef {
  readonly name: string;
  readonly slug: string;
}

/**
 * An author as the source describes them: what the workspace gets when it lacks them (an
 * existing author with the slug is never changed). Public fields only, never an email.
 */
export interface ImportAuthor extends ImportAuthorRef {
  readonly bio?: string | null | undefined;
  readonly avatarUrl?: string | null | undefined;
  readonly websiteUrl?: string | null | undefined;
}

/** Something of the source that is deliberately not imported, and why (shown to the user). */
export interface SkippedEntry {
  readonly origin: string;
  readonly reason: string;
}

export interface ImportSet {
  readonly format: "pressroom" | "ghost" | "markdown";
  readonly blogs: readonly ImportBlog[];
  /**
   * The source's authors, for creating those the workspace lacks (a Pressroom export lists all
   * of the exported workspace's; Ghost's are the users its posts name). Absent: none.
   */
  readonly authors?: readonly ImportAuthor[] | undefined;
  readonly skipped: readonly SkippedEntry[];
  /** Lines about what was converted and how (e.g. "3 posts had Ghost cards kept as HTML"). */
  readonly notes: readonly string[];
  /**
   * Image files the blogs name by token (import-images.ts), to put in the library before the
   * blogs are planned (attach-images.ts); absent: none.
   */
  readonly images?: readonly ImportImage[] | undefined;
}

/** A set's blogs and what the reader said of them: what an import plans, whatever the source. */
export type ImportEntries = Omit<ImportSet, "format">;

/** One problem of the source, located: a file and line, or an entry of a list. */
export interface ImportProblem {
  /** `notes/a.md:3`, `posts[3] "same-title"`, `ws.json`. */
  readonly where: string;
  readonly message: string;
}

/**
 * The source cannot be imported as it is. Thrown by readers (and by the import's checks
 * against the database) BEFORE anything is written; lists every problem found, not only the
 * first, so one run tells the user all there is to fix.
 */
/**
 * What kind of problem stops an import: a source or entry breaking a rule; entries clashing with
 * each other or with the workspace's blogs (a slug used twice); a body the renderer refuses.
 */
export type ImportProblemKind = Extract<DomainErrorCode, "invalid" | "conflict" | "unprocessable">;

export class ImportInputError extends Error {
  constructor(
    readonly problems: readonly ImportProblem[],
    readonly kind: ImportProblemKind = "invalid",
  ) {
    const shown = problems.slice(0, 20).map((p) => `  ${p.where}: ${p.message}`);
    const more = problems.length > 20 ? [`  … and ${problems.length - 20} more`] : [];
    super(
      [
        `Nothing was imported: ${problems.length} problem(s) in the source.`,
        ...shown,
        ...more,
      ].join("\n"),
    );
    this.name = "ImportInputError";
  }
}

/** Progress of a long step, for the CLI's progress line (stderr). */
export type OnProgress = (step: string, done: number, total: number) => void;

/** A reader of one source format. */
export type ImportReader = (
  source: string,
  options: {
    readonly onProgress?: OnProgress;
    /** Largest JSON file read (IMPORT_MAX_BYTES); default json-source.ts's. */
    readonly maxJsonBytes?: number;
    /** When times to come are judged from (a Ghost post's scheduled release); default now. */
    readonly now?: Date;
    /**
     * Where the source's images are (`--media-dir`): Ghost's `content/images` folder, or a
     * Pressroom export's media folder (default: the one `pressroom export` writes beside it).
     */
    readonly mediaDir?: string | undefined;
  },
) => Promise<ImportSet>;
