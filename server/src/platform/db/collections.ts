import type { Collection, Db } from "mongodb";

/**
 * Stored documents: the database's own shapes, independent of the APIs' (a change of a spec's
 * response changes a view — blogs/blog-view.ts, keys/key-view.ts, … — not what is stored). Their
 * indexes are in indexes.ts. Longer than ~250 lines on purpose: the schema of every collection,
 * read in one place, is what this file is for.
 */
export interface WorkspaceDoc {
  _id: string;
  name: string;
  createdAt: Date;
  /** The default limit of the workspace's keys; null or absent: the server's (CONSUMER_RATE_LIMIT). */
  rateLimit?: RateLimitSetting | null;
  /**
   * Where editors' "Preview on site" goes (admin.yaml `PreviewUrl`, preview/preview-url.ts);
   * null or absent: none.
   */
  previewUrl?: string | null;
  /** Whether its owners must use two-step sign-in (admin.yaml, setOwnerTwoStep); absent: false. */
  ownersNeedTwoStep?: boolean;
  /**
   * Its public feeds' ID and link template (feeds/public-feed-settings.ts; index
   * `public_feed_id`): both present while feeds are on, both absent otherwise.
   */
  feedId?: string;
  feedLinkTemplate?: string;
}

/** One author of a workspace (authors/authors-store.ts; admin.yaml `Author`). */
export interface AuthorDoc {
  /** `au_…`. */
  _id: string;
  workspaceId: string;
  name: string;
  /** The list's order: the name with case and accents folded (authors/author-rules.ts). */
  nameKey: string;
  /** Unique in the workspace (index `workspace_author_slug`). */
  slug: string;
  bio: string | null;
  avatarUrl: string | null;
  websiteUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One image of a workspace's library (media/media-store.ts; admin.yaml `Media`). */
export interface MediaDoc {
  /** `med_…`: unguessable, it is the public URL's. */
  _id: string;
  workspaceId: string;
  /** SHA-256 of the bytes as uploaded, hex: the same bytes are one image (index `workspace_media_bytes`). */
  sha256: string;
  /** The URL's last segment (media/media-name.ts). */
  name: string;
  alt: string;
  type: "jpeg" | "png" | "webp" | "avif" | "gif";
  width: number;
  height: number;
  /** The stored (normalised) image's size. */
  bytes: number;
  /** Words of the name and the alt text with their prefixes, for the library's search. */
  terms: string[];
  createdAt: Date;
  /** The user who uploaded it. */
  createdBy: string;
}

/** Which base path of the consumer API a key reads (keys/key-format.ts): its prefix tells. */
export type KeyKind = "live" | "preview";

export type KeyStatus = "Active" | "Revoked";

export interface ApiKeyDoc {
  /** SHA-256 hex of the raw key: the lookup key, so authentication reads the primary index. */
  _id: string;
  /** Public identifier used to list and revoke the key. */
  keyId: string;
  workspaceId: string;
  name: string;
  /** The raw key's kind prefix and first 4 characters of its body, for display. */
  prefix: string;
  /** Which base path the key reads (keys/key-format.ts); absent on keys minted before kinds: live. */
  kind?: KeyKind;
  status: KeyStatus;
  createdAt: Date;
  /** User id of who minted it; null when an operator used the CLI. */
  createdBy: string | null;
  revokedAt: Date | null;
  revokedBy: string | null;
  lastUsedAt: Date | null;
  /** When the key stops being accepted; null or absent (keys minted before expiry existed): never. */
  expiresAt?: Date | null;
  /** The key id this key succeeded by a roll. */
  rolledFrom?: string | null;
  /** The key id of the successor minted by rolling this key. */
  rolledTo?: string | null;
  /** This key's own limit; null or absent: the workspace's default applies. */
  rateLimit?: RateLimitSetting | null;
  /**
   * False while the key has an `expiresAt` whose `key.expired` audit entry is not written yet,
   * true once it is (keys/expiry-sweeper.ts); absent on keys without an expiry. What the sweep's
   * index (`expiry_sweep`) finds, so it never reads keys that are done.
   */
  expiryLogged?: boolean;
}

/** At most `requests` consumer requests per fixed window of `windowSeconds`. */
export interface RateLimitSetting {
  requests: number;
  windowSeconds: number;
}

export interface UserDoc {
  _id: string;
  /** Lower-cased; unique. */
  email: string;
  name: string;
  /** argon2id PHC string. */
  passwordHash: string;
  /**
   * Counts the events that end all of the account's sessions (a password change, "sign out
   * everywhere"): a sign-in stores its session only if it is unchanged since it read the hash it
   * checked (sessions/sessions-store.ts). Absent on accounts stored before it existed: 0.
   */
  passwordGeneration?: number;
  createdAt: Date;
  /** Two-step sign-in, when on (users/two-step.ts); absent when off. */
  twoStep?: TwoStepDoc;
  /** A TOTP secret shown by `startTwoStep`, waiting for a code to turn it on; absent otherwise. */
  twoStepPending?: { secret: string; expiresAt: Date };
}

/** An account's two-step sign-in (users/two-step-store.ts). */
export interface TwoStepDoc {
  /** The TOTP secret, sealed for the account's id (platform/secret-box.ts). */
  secret: string;
  /** The latest 30-second step whose code was accepted: no code of it or before is taken again. */
  lastStep: number;
  /** SHA-256 hex of each unused recovery code. */
  recoveryCodes: string[];
  enabledAt: Date;
}

export type Role = "owner" | "member";

export interface MembershipDoc {
  /** `${workspaceId}:${userId}` — one membership per pair. */
  _id: string;
  workspaceId: string;
  userId: string;
  role: Role;
  createdAt: Date;
}

export interface SessionDoc {
  /** SHA-256 hex of the session token; the token itself lives only in the cookie. */
  _id: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * One sign-in attempt that reached (or is about to reach) the password check: failed attempts
 * keep theirs until it expires, a success deletes its email's (sessions/sign-in-throttle.ts).
 */
export interface SignInFailuresDoc {
  /** Random, one per attempt: inserts of distinct documents are never lost, even on FerretDB. */
  _id: string;
  /** Trimmed and lower-cased, as users are looked up. */
  email: string;
  /** The client address the attempt came from; IPv6 by its /64. */
  address: string;
  /** When the attempt stops counting (attempt time + the throttle window); TTL-deleted. */
  expiresAt: Date;
}

/**
 * A personal access token (tokens/access-tokens-store.ts): a user's credential for scripts on
 * the admin API. The token itself is never stored: only its SHA-256 hash, the `_id`.
 */
export interface AccessTokenDoc {
  /** SHA-256 hex of the token: the lookup key, so authentication reads the primary index. */
  _id: string;
  /** Public identifier (`tok_…`), to list and revoke it. */
  tokenId: string;
  userId: string;
  name: string;
  /** `pr_pat_` and the first 4 characters of the token, for recognising it. */
  prefix: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
}

/**
 * A password-reset link (users/password-reset-links.ts). The link's token is never stored: only its
 * SHA-256 hash, the document's `_id`.
 */
/**
 * A sign-in whose password was right, waiting for its second step (sessions/sign-in-challenges.ts).
 * The challenge itself is never stored: only its SHA-256 hash, the `_id`.
 */
export interface SignInChallengeDoc {
  _id: string;
  userId: string;
  /** The account's `passwordGeneration` when the password was checked: a change since voids it. */
  generation: number;
  /** Five minutes after the password; TTL-deleted. */
  expiresAt: Date;
}

export interface PasswordResetDoc {
  /** SHA-256 hex of the link's token. */
  _id: string;
  userId: string;
  /** The account's `passwordGeneration` when the link was made: a change since voids the link. */
  generation: number;
  createdAt: Date;
  /** When the link stops working (created + 30 minutes); TTL-deleted. */
  expiresAt: Date;
  /** Set, once, by the use that claims the link. */
  usedAt: Date | null;
}

/**
 * An account's email change waiting for its confirmation link (users/email-change-links.ts): at
 * most one per account, its `_id`, so a new request replaces the one before and voids its link.
 * The link's token is never stored: only its SHA-256 hash, by which the link is looked up.
 */
export interface EmailChangeDoc {
  /** The account's id. */
  _id: string;
  /** SHA-256 hex of the link's token; unique. */
  tokenHash: string;
  /** The email asked for (normalised), which the link was mailed to. */
  newEmail: string;
  /** The account's email when it was asked: a change since voids the link. */
  fromEmail: string;
  /** The account's `passwordGeneration` when it was asked: a change since voids the link. */
  generation: number;
  createdAt: Date;
  /** When the link stops working (created + 24 hours); TTL-deleted. */
  expiresAt: Date;
  /** Set, once, by the use that claims the link. */
  usedAt: Date | null;
}

/**
 * An invitation to join a workspace (invitations/invitations-store.ts). The link's token is never
 * stored: only its SHA-256 hash, by which the link is looked up.
 */
export interface InvitationDoc {
  /** Public identifier (`inv_…`), to list and withdraw it. */
  _id: string;
  /** SHA-256 hex of the link's token; unique. */
  tokenHash: string;
  workspaceId: string;
  /** Lower-cased, as accounts are looked up. */
  email: string;
  role: Role;
  /** User id of the owner who invited. */
  invitedBy: string;
  createdAt: Date;
  /** Seven days after `createdAt`: the link stops working. */
  expiresAt: Date;
  /**
   * Seven days after `expiresAt`: the invitation is deleted (TTL index, sweeper). Until then a
   * used or expired link is told so (410); afterwards it is unknown (404).
   */
  keepUntil: Date;
  /** Set once, by compare-and-set, when the invitation is used; null while pending. */
  acceptedAt: Date | null;
  /** Who joined with it. */
  acceptedBy: string | null;
}

/**
 * One-off markers; `_id: "setup"` exists once first-run setup has happened, and
 * `_id: "changes-token-key"` holds the key that signs the changes feed's tokens (in `value`).
 * `record-ahead/<workspace id>` (and `record-ahead-preview/…`) is the lease of the process that
 * records a feed's marks ahead: `value` its holder, `at` when it lapses (changes/ahead-leases.ts).
 */
export interface MarkerDoc {
  _id: string;
  at: Date;
  value?: string;
}

export type BlogStatus = "draft" | "released" | "removed";

export interface BlogDoc {
  _id: string;
  workspaceId: string;
  status: BlogStatus;
  /** Lower-case letters, digits and dashes; unique within the workspace (index `workspace_slug`). */
  slug: string;
  /** Trimmed, never empty. */
  title: string;
  /** Plain text: the writer's, or derived from the body's first paragraph. */
  excerpt: string;
  bodyMarkdown: string;
  /** `bodyMarkdown` rendered and sanitised when the blog was saved (blogs/render.ts). */
  bodyHtml: string;
  /** In normal form (@pressroom/tag-rule), distinct, none empty (index `released_by_tag`). */
  tags: string[];
  /** The byline consumers read while the blog names no author (`authorIds`). */
  authorName: string;
  /**
   * The workspace's authors (AuthorDoc ids) the blog names, in order, the first the primary
   * (index `released_author`); joined at read (blogs/blog-authors.ts), so an author's edit
   * shows everywhere at once. Absent on blogs stored before authors existed: none.
   */
  authorIds?: string[];
  /** An absolute http(s) URL, or null. */
  coverImageUrl: string | null;
  /*
   * The presentation and search fields (blog-rules.ts `PRESENTATION_FIELDS`): trimmed plain text
   * or null, URLs as `coverImageUrl`. Absent on blogs stored before they existed (read as null,
   * `featured` as false); every write since stores them all.
   */
  coverImageAlt?: string | null;
  /** Chosen by the editors (index `released_featured`). */
  featured?: boolean;
  metaTitle?: string | null;
  metaDescription?: string | null;
  canonicalUrl?: string | null;
  socialImageUrl?: string | null;
  /**
   * Derived from `bodyHtml` when it is rendered (blogs/reading-time.ts). Absent only on blogs
   * stored before it existed, until the start-up migration (blogs/reading-time-migration.ts).
   */
  readingTimeMinutes?: number;
  createdAt: Date;
  updatedAt: Date;
  releasedAt: Date | null;
  removedAt: Date | null;
  /**
   * Random, new on every write of the blog (create, edit, state change): with `updatedAt` it is
   * what the consumer API's ETags are derived from, so a 304 needs no content read. Absent on
   * blogs stored before it existed (their `updatedAt` still changes on every write).
   */
  revision?: string;
  /**
   * True from a write that consumers of the changes feed must hear about (the blog is released
   * after it, or was before it) until the feed has recorded it (changes/change-recorder.ts).
   * Set in the same update as the change itself, so no change can be missed, crash or not.
   */
  feedPending?: boolean;
  /**
   * True from any write of the blog (its preview changed) until the preview changes feed has
   * recorded it (blogs/preview-mark.ts); `previewMark` is new on every such write. Absent on
   * blogs not written since preview existed (the preview feed's first walk has them).
   */
  previewPending?: boolean;
  previewMark?: string;
  /**
   * Webhook events of this blog's writes not yet relayed (webhooks/): pushed in the same update
   * as the change, removed once relayed. Absent or empty when none wait.
   */
  webhookOutbox?: OutboxEventDoc[];
  /** True while `webhookOutbox` holds events (the relay's index `webhook_pending`). */
  webhookPending?: boolean;
  /** The number of this blog's last webhook event (`OutboxEventDoc.seq`); absent before the first. */
  eventSeq?: number;
  /**
   * The source entry an import made or last wrote this blog from (`ImportBlog.sourceKey`:
   * `pressroom:<id>`, `ghost:<id>`, `markdown:<path>`); absent on blogs never imported. The blog's
   * `_id` is derived from it and the workspace (transfer/import-identity.ts), so a re-import finds
   * the blog by `_id`; this field is for people and tools reading the database.
   */
  importKey?: string;
  /**
   * The admin search's terms (blogs/search-terms.ts): the words of title, slug and tags,
   * normalised, each with its prefixes; written with them by every writer (index
   * `editor_search`). Never sent by an API. Absent only before the start-up migration.
   */
  searchTerms?: string[];
  /** The title sort's key (blogs/search-terms.ts `titleKeyOf`; index `editor_title`). */
  titleKey?: string;
  /**
   * The consumer search's terms (blogs/text-search.ts): the distinct words of the live title,
   * excerpt, tags and body text; written with them by every writer (index `released_search`).
   * Never sent by an API. Absent only before the start-up migration.
   */
  textTerms?: string[];
  /**
   * The library images (MediaDoc ids) the live version shows, as cover or in the body
   * (media/body-images.ts `mediaIdsOf`); written with them by every writer (index `blog_media`):
   * what deleting an image looks up. Absent only before the start-up migration.
   */
  mediaIds?: string[];
  /**
   * A released blog's pending changes (admin.yaml, "Staged changes"): the version of its content
   * as edited since and not yet published. The content itself is a `blogStaged` document of its
   * own (`StagedContentDoc`), so that a blog's row holds only what consumers read and a few
   * small fields: the consumers' reads never carry pending changes, not even to skip them.
   * Absent when none.
   */
  staged?: StagedMarker;
  /**
   * What the server will do to the blog by itself, and when (admin.yaml, "Schedules";
   * blogs/blog-schedule.ts). Absent when nothing is scheduled.
   */
  schedule?: BlogScheduleDoc;
  /**
   * The earliest time of `schedule`, written with it (index `schedule_due`: what the scheduler
   * looks for). Absent when nothing is scheduled.
   */
  dueAt?: Date;
}

/** `BlogDoc.schedule`: at least one of the two times. */
export interface BlogScheduleDoc {
  /** When a draft is released, or a released blog's pending changes published. */
  publishAt?: Date;
  /** When the blog goes back to draft. */
  unreleaseAt?: Date;
  /** Who set it, in whose name it is done (audit, history); null for the operator's CLI. */
  by: string | null;
  /** New on every change of the schedule: part of the blog's admin version. */
  rev: string;
}

/** `BlogDoc.staged`: which pending changes a blog has (their content: `StagedContentDoc`). */
export interface StagedMarker {
  /** New on every staged edit: the blog's admin version while it has pending changes. */
  revision: string;
  updatedAt: Date;
}

/**
 * The content of a blog's pending changes (blogs/blog-staging.ts): inserted before the blog's
 * `staged` names it, never changed, deleted once the blog names other ones (or none). `_id` is
 * the blog's id, ":" and the revision, so each version of pending changes is a document.
 */
export type StagedContentDoc = StagedContent & {
  _id: string;
  workspaceId: string;
  blogId: string;
  /**
   * The library images these changes show (as `BlogDoc.mediaIds`; index `staged_media`). Absent
   * only on changes stored before it existed, until the start-up migration.
   */
  mediaIds?: string[];
};

/** A blog's presentation and search fields (blogs/blog-rules.ts `PRESENTATION_FIELDS`). */
export type PresentationKey =
  | "coverImageAlt"
  | "featured"
  | "metaTitle"
  | "metaDescription"
  | "canonicalUrl"
  | "socialImageUrl";

/** Pending changes: the content fields as edited, with the edit's own version. */
export type StagedContent = Pick<
  BlogDoc,
  | "slug"
  | "title"
  | "excerpt"
  | "bodyMarkdown"
  | "bodyHtml"
  | "tags"
  | "authorName"
  | "coverImageUrl"
  // Absent on pending changes stored before they existed: publishing such leaves them as live.
  | PresentationKey
  | "authorIds"
  | "readingTimeMinutes"
> & {
  /** New on every staged edit: the blog's admin version while it has pending changes. */
  revision: string;
  updatedAt: Date;
};

/** What made a revision of a blog (admin.yaml, `BlogRevisionAction`). */
export type RevisionAction =
  | "created"
  | "edited"
  | "released"
  | "unreleased"
  | "published"
  | "discarded"
  | "restored";

/** The content fields a revision keeps: what the editor showed after it (no rendered body). */
export type RevisionContent = Pick<
  BlogDoc,
  | "slug"
  | "title"
  | "excerpt"
  | "bodyMarkdown"
  | "tags"
  | "authorName"
  | "coverImageUrl"
  // Absent on revisions kept before they existed (read as their defaults).
  | PresentationKey
  | "authorIds"
>;

/**
 * One revision of a blog's history (blogs/blog-history.ts): inserted after a write of the blog
 * applied, never changed; the oldest beyond the server's bound per blog are deleted, and all of
 * a blog's when it is removed.
 */
export interface BlogRevisionDoc {
  /** `rev_` and random characters. */
  _id: string;
  workspaceId: string;
  blogId: string;
  at: Date;
  /** The user who did it; null for the operator's CLI. */
  by: string | null;
  action: RevisionAction;
  /** The blog's state after it (a removed blog keeps no history). */
  status: Exclude<BlogStatus, "removed">;
  /** The blog was released with pending changes after it. */
  pendingChanges: boolean;
  /** The content fields that differ from the working version before the write. */
  changed: (keyof RevisionContent)[];
  /** A `restored` revision's source. */
  restoredFrom?: string;
  content: RevisionContent;
}

/**
 * One entry of a workspace's changes feed: "blog `blogId` changed". Entries are numbered densely
 * per workspace (1, 2, 3, …) by insert alone: `_id` is the workspace id, "/", and the number as
 * 15 zero-padded digits, so an entry can be taken only once and a workspace's entries are one
 * `_id` range in order (changes/change-log.ts).
 */
export interface ChangeEntryDoc {
  _id: string;
  workspaceId: string;
  blogId: string;
  /**
   * The version of the blog the entry was made for, when its recorder knew it (the live feed's
   * recordings: the blog's `revision`); absent on the preview feed's entries, an author's edit's
   * and entries made before versions were kept.
   */
  version?: string;
  /** When the entry was made; entries older than the retention are deleted. */
  at: Date;
}

export type AuditAction =
  | "key.minted"
  | "key.rolled"
  | "key.revoked"
  | "key.expired"
  | "key.limit_changed"
  | "workspace.limit_changed"
  | "workspace.preview_url_changed"
  | "workspace.owner_two_step_required"
  | "workspace.owner_two_step_lifted"
  | "workspace.public_feeds_on"
  | "workspace.public_feeds_changed"
  | "workspace.public_feeds_off"
  | "workspace.public_feed_renewed"
  | "invitation.created"
  | "invitation.resent"
  | "invitation.withdrawn"
  | "member.added"
  | "member.joined"
  | "member.role_changed"
  | "member.removed"
  | "member.left"
  | "webhook.created"
  | "webhook.updated"
  | "webhook.deleted"
  | "webhook.secret_rotated"
  | "blog.released"
  | "blog.unreleased"
  | "blog.removed"
  | "blog.published"
  | "blog.discarded"
  | "blog.restored"
  | "blog.scheduled"
  | "blog.schedule_cancelled"
  | "blog.schedule_failed"
  | "author.created"
  | "author.updated"
  | "author.removed";

export interface AuditDetailsDoc {
  expiresAt?: Date | null;
  /** The successor of a roll. */
  successor?: string;
  gracePeriodSeconds?: number;
  /** A limit before and after a change; null: the default applied. */
  from?: RateLimitSetting | null;
  to?: RateLimitSetting | null;
  /** Team actions: the invitation, the role invited / joined with / given, and the one before. */
  invitationId?: string;
  role?: Role;
  previousRole?: Role;
  /** The account acted on (who joined, was removed, left, got a new role). */
  userId?: string;
  /** Why an invitation was withdrawn (admin.yaml, AuditDetails). */
  reason?: "withdrawn" | "inviter_not_owner";
  /** The webhook endpoint of a `webhook.*` entry (never its URL, never a secret). */
  endpointId?: string;
  /** The settings a `webhook.updated` changed. */
  changed?: ("url" | "description" | "events" | "enabled")[];
  /** Whether a `webhook.secret_rotated` stopped the previous secret signing at once. */
  previousSecretDropped?: boolean;
  /** The blog of a `blog.*` entry, and its title then. */
  blogId?: string;
  blogTitle?: string;
  /** The author of an `author.*` entry, and their name then (after an update, the new one). */
  authorId?: string;
  authorName?: string;
  /** The times a `blog.scheduled` set (null: none), or a `blog.schedule_failed` missed. */
  publishAt?: Date | null;
  unreleaseAt?: Date | null;
}

/** One entry of a workspace's audit log (audit/audit-log.ts); inserted, never changed. */
export interface AuditEntryDoc {
  /** Random (`aud_…`), or deterministic where an entry must be written once (`${keyId}:expired`). */
  _id: string;
  workspaceId: string;
  at: Date;
  /** The user who did it; null for the operator's CLI and the server itself. */
  actor: string | null;
  action: AuditAction;
  keyId: string | null;
  details: AuditDetailsDoc;
  /**
   * The access token the actor acted with (its id and name then); null or absent (entries
   * written before tokens existed) when they acted with a session, or none acted.
   */
  token?: { id: string; name: string } | null;
}

/**
 * One server instance's count of one key's attempts in one fixed window of the rate limiter
 * (limits/rate-counters.ts). Written by that instance alone; a window's total is the sum of its
 * documents, one `_id` range.
 */
export interface RateCounterDoc {
  /** `${keyId}/${windowStart ms}/${instanceId}`. */
  _id: string;
  /** The instance's attempts in the window (admitted and refused). */
  n: number;
  /** A minute after the window ends; TTL-deleted (the sweeper on the embedded database). */
  expiresAt: Date;
}

/** The outcomes consumer requests are counted by (limits/usage-recorder.ts). */
export const USAGE_OUTCOMES = ["ok", "notModified", "notFound", "rateLimited", "other"] as const;
export type UsageOutcome = (typeof USAGE_OUTCOMES)[number];

/**
 * Consumer requests of one key in one hour or day, or of one workspace in one day, by outcome
 * (limits/usage-store.ts). `_id` is `${keyId}/h/${hour}`, `${keyId}/d/${day}` or
 * `${workspaceId}/d/${day}` (ISO 8601 start, UTC), so a range of buckets is one `_id` range.
 */
export interface KeyUsageDoc extends Record<UsageOutcome, number> {
  _id: string;
  start: Date;
  /** Hours are kept 48 hours, days 90 days; TTL-deleted (the sweeper on the embedded database). */
  expiresAt: Date;
}

/** The events a webhook endpoint can subscribe to (openapi/admin.yaml `WebhookEventType`). */
export const WEBHOOK_EVENT_TYPES = [
  "blog.released",
  "blog.updated",
  "blog.unreleased",
  "blog.removed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * An event waiting in its blog's outbox (`BlogDoc.webhookOutbox`): pushed in the same update as
 * the change it tells of, moved into `webhookEvents` by the outbox relay (webhooks/).
 */
export interface OutboxEventDoc {
  /** `evt_…`: the event's id, sent as `webhook-id`; made when the change is written. */
  id: string;
  type: WebhookEventType;
  /** When the change was written. */
  at: Date;
  /** The blog's event number: 1, 2, 3, … per blog, in the order its changes were written. */
  seq: number;
  /** The blog's slug after the change. */
  slug: string;
}

/**
 * A workspace's webhook endpoint: what the owner configured. The server writes it only to turn
 * it off after a day of failures; its delivery health is in `webhookHealth`.
 */
export interface WebhookEndpointDoc {
  /** `we_…`. */
  _id: string;
  workspaceId: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  /** Why the server turned it off; null when on or turned off by a person. */
  disabledReason: string | null;
  /**
   * The signing secret's 32 bytes, sealed (platform/secret-box.ts: AES-256-GCM, the endpoint id
   * as associated data); opened only to sign a delivery.
   */
  secret: string;
  /** The secret before the last rotation, sealed; signs too until `previousSecretExpiresAt`. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  secretRotatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string | null;
}

/** An endpoint's delivery health, written by the delivery worker only (`_id` = endpoint id). */
export interface WebhookHealthDoc {
  _id: string;
  lastSuccessAt: Date | null;
  /** The first failed attempt since the last success; null after a success. */
  failingSince: Date | null;
}

/** An event relayed from a blog's outbox (or a test event); one per `webhook-id`. */
export interface WebhookEventDoc {
  /** `evt_…` (= `webhook-id`). */
  _id: string;
  workspaceId: string;
  type: WebhookEventType | "webhook.test";
  occurredAt: Date;
  /** null for a test event. */
  blogId: string | null;
  slug: string | null;
  /** The blog's event number (`OutboxEventDoc.seq`); 0 for a test event. */
  seq: number;
  /** The test event's endpoint; null for blog events. */
  endpointId: string | null;
}

export type WebhookDeliveryState = "pending" | "delivered" | "failed" | "skipped";

/** One event to be sent to one endpoint, with its retry schedule. */
export interface WebhookDeliveryDoc {
  /** `dlv_…`. */
  _id: string;
  eventId: string;
  endpointId: string;
  workspaceId: string;
  eventType: WebhookEventType | "webhook.test";
  /** Per-blog ordering: the blog and its event number (null/0 for test events). */
  blogId: string | null;
  seq: number;
  state: WebhookDeliveryState;
  /** Attempts made (or taken over) so far. */
  attempts: number;
  /** When the next attempt is due; null once settled. */
  nextAttemptAt: Date | null;
  redeliveryOf: string | null;
  /**
   * True on a test event or redelivery (queued by an owner, manual-deliveries.ts), which count
   * against the endpoint's cap on pending ones; absent on deliveries of blog events.
   */
  manual?: true;
  createdAt: Date;
  settledAt: Date | null;
}

/**
 * One attempt at a delivery. Inserting it is how an instance takes the attempt (its `_id` is the
 * delivery id and the attempt's number, so only one instance can take it); it then holds a lease
 * until `leaseUntil`. Written afterwards by that instance alone.
 */
export interface WebhookAttemptDoc {
  /** `${deliveryId}#${number, 2 digits}`. */
  _id: string;
  deliveryId: string;
  endpointId: string;
  number: number;
  instanceId: string;
  startedAt: Date;
  leaseUntil: Date;
  finishedAt: Date | null;
  latencyMs: number | null;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

export interface Collections {
  readonly workspaces: Collection<WorkspaceDoc>;
  readonly apiKeys: Collection<ApiKeyDoc>;
  readonly blogs: Collection<BlogDoc>;
  readonly users: Collection<UserDoc>;
  readonly memberships: Collection<MembershipDoc>;
  readonly sessions: Collection<SessionDoc>;
  readonly signInFailures: Collection<SignInFailuresDoc>;
  readonly passwordResets: Collection<PasswordResetDoc>;
  readonly signInChallenges: Collection<SignInChallengeDoc>;
  readonly emailChanges: Collection<EmailChangeDoc>;
  readonly accessTokens: Collection<AccessTokenDoc>;
  readonly markers: Collection<MarkerDoc>;
  readonly changes: Collection<ChangeEntryDoc>;
  readonly audit: Collection<AuditEntryDoc>;
  readonly invitations: Collection<InvitationDoc>;
  readonly rateCounters: Collection<RateCounterDoc>;
  readonly keyUsage: Collection<KeyUsageDoc>;
  readonly webhookEndpoints: Collection<WebhookEndpointDoc>;
  readonly webhookHealth: Collection<WebhookHealthDoc>;
  readonly webhookEvents: Collection<WebhookEventDoc>;
  readonly webhookDeliveries: Collection<WebhookDeliveryDoc>;
  readonly webhookAttempts: Collection<WebhookAttemptDoc>;
  readonly blogRevisions: Collection<BlogRevisionDoc>;
  readonly blogStaged: Collection<StagedContentDoc>;
  readonly authors: Collection<AuthorDoc>;
  readonly media: Collection<MediaDoc>;
}

export function collections(db: Db): Collections {
  return {
    workspaces: db.collection<WorkspaceDoc>("workspaces"),
    apiKeys: db.collection<ApiKeyDoc>("apiKeys"),
    blogs: db.collection<BlogDoc>("blogs"),
    users: db.collection<UserDoc>("users"),
    memberships: db.collection<MembershipDoc>("memberships"),
    sessions: db.collection<SessionDoc>("sessions"),
    signInFailures: db.collection<SignInFailuresDoc>("signInFailures"),
    passwordResets: db.collection<PasswordResetDoc>("passwordResets"),
    signInChallenges: db.collection<SignInChallengeDoc>("signInChallenges"),
    emailChanges: db.collection<EmailChangeDoc>("emailChanges"),
    accessTokens: db.collection<AccessTokenDoc>("accessTokens"),
    markers: db.collection<MarkerDoc>("markers"),
    changes: db.collection<ChangeEntryDoc>("changes"),
    audit: db.collection<AuditEntryDoc>("audit"),
    invitations: db.collection<InvitationDoc>("invitations"),
    rateCounters: db.collection<RateCounterDoc>("rateCounters"),
    keyUsage: db.collection<KeyUsageDoc>("keyUsage"),
    webhookEndpoints: db.collection<WebhookEndpointDoc>("webhookEndpoints"),
    webhookHealth: db.collection<WebhookHealthDoc>("webhookHealth"),
    webhookEvents: db.collection<WebhookEventDoc>("webhookEvents"),
    webhookDeliveries: db.collection<WebhookDeliveryDoc>("webhookDeliveries"),
    webhookAttempts: db.collection<WebhookAttemptDoc>("webhookAttempts"),
    blogRevisions: db.collection<BlogRevisionDoc>("blogRevisions"),
    blogStaged: db.collection<StagedContentDoc>("blogStaged"),
    authors: db.collection<AuthorDoc>("authors"),
    media: db.collection<MediaDoc>("media"),
  };
}
