import type { Db } from "mongodb";
import { type FirstRunSetup, firstRunSetup } from "./admin/first-run-setup.js";
import { type AuditStore, auditLog } from "./audit/audit-log.js";
import { type AuthorsStore, authorsStore } from "./authors/authors-store.js";
import { markBlogsNaming } from "./blogs/author-marks.js";
import { type BlogAuthors, blogAuthors } from "./blogs/blog-authors.js";
import { blogHistory } from "./blogs/blog-history.js";
import { type BlogsStore, blogsStore } from "./blogs/blogs-store.js";
import { type BodyRenderer, inlineRenderer } from "./blogs/render-pool.js";
import {
  TAGS_RECORDED_PER_CALL,
  type TagCountsCache,
  tagCountsCache,
} from "./blogs/tag-counts-cache.js";
import { aheadLeases } from "./changes/ahead-leases.js";
import { changeLog } from "./changes/change-log.js";
import { type ChangeRecorder, changeRecorder } from "./changes/change-recorder.js";
import { changeTokens } from "./changes/change-token.js";
import { type ChangesFeed, changesFeed } from "./changes/changes-feed.js";
import { releasedSet } from "./changes/released-set.js";
import { type PublicFeeds, publicFeeds } from "./feeds/public-feed-settings.js";
import { type InvitationsStore, invitationsStore } from "./invitations/invitations-store.js";
import { type KeyRoller, keyRoller } from "./keys/key-roll.js";
import { type KeysStore, keysStore } from "./keys/keys-store.js";
import { type RateCounters, rateCounters } from "./limits/rate-counters.js";
import { type RateLimitSettings, rateLimitSettings } from "./limits/rate-limit-settings.js";
import { type UsageStore, usageStore } from "./limits/usage-store.js";
import { type WorkspaceLimits, workspaceLimits } from "./limits/workspace-limits.js";
import { withLibraryImageSizes } from "./media/body-image-sizes.js";
import { libraryLookup } from "./media/library-lookup.js";
import { collections, type RateLimitSetting } from "./platform/db/collections.js";
import { databaseSecret } from "./platform/db/database-secret.js";
import { derivedKey, secretBox } from "./platform/secret-box.js";
import { previewChangesFeed } from "./preview/preview-feed.js";
import { type PreviewReads, previewReads } from "./preview/preview-reads.js";
import { type PreviewTokens, previewTokens } from "./preview/preview-tokens.js";
import { currentPasswordCheck } from "./sessions/current-password.js";
import { type SessionsStore, sessionsStore } from "./sessions/sessions-store.js";
import { type SignInChallenges, signInChallenges } from "./sessions/sign-in-challenges.js";
import { type SignInThrottle, signInThrottle } from "./sessions/sign-in-throttle.js";
import { type AccessTokensStore, accessTokensStore } from "./tokens/access-tokens-store.js";
import {
  patientRenderer,
  type WorkspaceTransfer,
  workspaceTransfer,
} from "./transfer/workspace-transfer.js";
import { type EmailChangeLinks, emailChangeLinks } from "./users/email-change-links.js";
import { type PasswordResetLinks, passwordResetLinks } from "./users/password-reset-links.js";
import { type TwoStep, twoStep } from "./users/two-step.js";
import { twoStepStore } from "./users/two-step-store.js";
import { type UsersStore, usersStore } from "./users/users-store.js";
import { type DeliveryLog, deliveryLog } from "./webhooks/delivery-log.js";
import type { UrlPolicy } from "./webhooks/endpoint-url.js";
import { type EndpointsStore, endpointsStore } from "./webhooks/endpoints-store.js";
import {
  type ManualDeliveries,
  type ManualDeliveryDeps,
  manualDeliveries,
} from "./webhooks/manual-deliveries.js";
import { type WorkspacesStore, workspacesStore } from "./workspaces/workspaces-store.js";

export interface StoreOptions {
  /**
   * What renders blog bodies: the server passes its pool of worker threads (render-pool.ts);
   * by default the same render on the calling thread, for the CLI, tests and seeding.
   */
  readonly renderer?: BodyRenderer;
  /** Lifetime of a dashboard session (config `SESSION_TTL_HOURS`); default 168 hours. */
  readonly sessionTtlMs?: number;
  /** How long a changes-feed token stays usable (config `CHANGES_RETENTION_DAYS`); default 30 days. */
  readonly changesRetentionMs?: number;
  /** The newest revisions of each blog kept (config `BLOG_REVISIONS_KEPT`); default 100. */
  readonly blogRevisionsKept?: number;
  /**
   * The clock of the changes feed, of key expiry and of the audit log, in epoch ms; tests pass
   * their own.
   */
  readonly now?: () => number;
  /** The server's default rate limit of keys (config `CONSUMER_RATE_LIMIT`); default none. */
  readonly consumerRateLimit?: RateLimitSetting | null;
  /**
   * The key sealing webhook signing secrets (config `WEBHOOK_SECRETS_KEY`); by default one made
   * once and kept in the database.
   */
  readonly webhookSecretsKey?: Buffer;
  /** Which webhook URLs may be saved (config `WEBHOOK_ALLOW_HTTP_LOOPBACK`); default https only. */
  readonly webhookUrlPolicy?: UrlPolicy;
  /**
   * Told the blog a write queued a webhook event for, in the blog's outbox: the server nudges
   * its outbox relay (webhooks/outbox-relay.ts); never awaited by the write. None by default.
   */
  readonly onWebhookEvent?: (blogId: string) => void;
  /**
   * Told the earliest time of a blog schedule just set: the server nudges its scheduler
   * (blogs/blog-scheduler.ts). None by default.
   */
  readonly onScheduled?: (at: Date) => void;
  /** Tests only: a shorter floor for a key's `expiresAt` than the API's 60 s. */
  readonly minKeyLifetimeMs?: number;
  /** Tests only: holds a roll between the successor's insert and the old key's update. */
  readonly afterSuccessorInsert?: (keyId: string) => Promise<void>;
  /** Tests only: holds a new session between its sign-in's password check and its insert. */
  readonly beforeSessionInsert?: (userId: string) => Promise<void>;
  /** Tests only: holds an invitation's accept after its claim, before it joins. */
  readonly afterInvitationClaim?: (invitationId: string) => Promise<void>;
  /** Tests only: holds a changes-feed recording between an entry and clearing its blog's mark. */
  readonly afterFeedAppend?: (blogId: string) => Promise<void>;
  /** Tests only: false keeps the changes feed from recording marks ahead (change-recorder.ts). */
  readonly recordFeedAhead?: boolean;
}

const WEBHOOK_SECRETS_MARKER = "webhook-secrets-key";
const TWO_STEP_SECRETS_MARKER = "two-step-secrets-key";
const DEFAULT_SESSION_TTL_MS = 168 * 3_600_000;
const DEFAULT_CHANGES_RETENTION_MS = 30 * 86_400_000;
const DEFAULT_REVISIONS_KEPT = 100;
/** Entries are kept a day longer than tokens, so clocks a little apart never lose one. */
const ENTRY_MARGIN_MS = 86_400_000;

/** Every store of the domain, over one database. */
export interface Stores {
  readonly users: UsersStore;
  readonly workspaces: WorkspacesStore;
  readonly setup: FirstRunSetup;
  readonly keys: KeysStore;
  /** `rollKey`: a successor now, the old key expiring after a grace period (keys/key-roll.ts). */
  readonly rollKey: KeyRoller;
  /** The workspace's default rate limit beside the server's (settings; enforced elsewhere). */
  readonly rateLimits: RateLimitSettings;
  /** Workspaces' default rate limits as the consumer API reads them: cached a few seconds. */
  readonly workspaceLimits: WorkspaceLimits;
  /** The rate limiter's shared counters (limits/rate-limiter.ts counts through them). */
  readonly rateCounters: RateCounters;
  /** Stored usage of the consumer API's keys, by hour and day (limits/usage-store.ts). */
  readonly usage: UsageStore;
  readonly audit: AuditStore;
  readonly blogs: BlogsStore;
  readonly changes: ChangesFeed;
  /** What `changes` records marked blogs with (change-recorder.ts); the CLI's import uses it too. */
  readonly feedRecorder: ChangeRecorder;
  /** Imports and exports of a workspace (transfer/workspace-transfer.ts): the CLI's and the API's. */
  readonly transfer: WorkspaceTransfer;
  /** `GET /tags`: `blogs.tagCounts`, computed once per change of the workspace's feed. */
  readonly tagCounts: TagCountsCache;
  /** The consumer API's preview perspective, its changes feed and preview links' tokens (preview/). */
  readonly preview: {
    readonly reads: PreviewReads;
    readonly tokens: PreviewTokens;
    readonly changes: ChangesFeed;
  };
  /** Workspaces' public feeds: their IDs and link templates (feeds/public-feed-settings.ts). */
  readonly publicFeeds: PublicFeeds;
  /** Workspaces' authors (authors/authors-store.ts). */
  readonly authors: AuthorsStore;
  /** The authors blogs name, read with the blogs (blogs/blog-authors.ts). */
  readonly blogAuthors: BlogAuthors;
  readonly sessions: SessionsStore;
  readonly invitations: InvitationsStore;
  /** Personal access tokens for the admin API (tokens/access-tokens-store.ts). */
  readonly accessTokens: AccessTokensStore;
  /** Password-reset links (users/password-reset-links.ts); the CLI makes them too. */
  readonly passwordResetLinks: PasswordResetLinks;
  /** Email changes waiting for their confirmation link (users/email-change-links.ts). */
  readonly emailChangeLinks: EmailChangeLinks;
  readonly throttle: SignInThrottle;
  /** Accounts' two-step sign-in (users/two-step.ts): TOTP secrets sealed, recovery codes hashed. */
  readonly twoStep: TwoStep;
  /** Sign-ins whose password was right, waiting for a code (sessions/sign-in-challenges.ts). */
  readonly signInChallenges: SignInChallenges;
  /** Webhook endpoints and their sealed signing secrets (webhooks/endpoints-store.ts). */
  readonly webhookEndpoints: EndpointsStore;
  /** Each endpoint's deliveries and their attempts, newest first (webhooks/delivery-log.ts). */
  readonly deliveryLog: DeliveryLog;
  /**
   * Test events and redeliveries (webhooks/manual-deliveries.ts), given how to nudge the
   * delivery worker and the limits on them, which the server's composition root holds.
   */
  manualDeliveries(deps: Pick<ManualDeliveryDeps, "nudge" | "limits">): ManualDeliveries;
}

/**
 * The one place the stores are built, for the server (app.ts), the operator's CLI, the tests and
 * the benchmark's seeding alike.
 */
export function createStores(db: Db, options: StoreOptions = {}): Stores {
  const c = collections(db);
  const users = usersStore(c);
  const workspaces = workspacesStore(c, users);
  const now = options.now ?? Date.now;
  const audit = auditLog(c, now);
  // Every render of a body (saves, previews, imports) sizes its library images
  // (media/body-image-sizes.ts): at write, so consumer reads cost nothing more.
  const renderer = withLibraryImageSizes(
    options.renderer ?? inlineRenderer,
    libraryLookup(c.media),
  );
  const blogs = blogsStore(c, {
    renderer,
    ...(options.onWebhookEvent === undefined ? {} : { onOutboxEvent: options.onWebhookEvent }),
    ...(options.onScheduled === undefined ? {} : { onScheduled: options.onScheduled }),
    audit,
    history: blogHistory(c, options.blogRevisionsKept ?? DEFAULT_REVISIONS_KEPT),
  });
  const retentionMs = options.changesRetentionMs ?? DEFAULT_CHANGES_RETENTION_MS;
  const sealKey = options.webhookSecretsKey;
  const log = changeLog(c);
  // One codec (and one read of its key) for both feeds' tokens: the scope tells them apart.
  const feedTokens = changeTokens(c);
  const previewView = previewReads(c);
  const recorder = changeRecorder({
    log,
    marks: {
      list: blogs.listFeedPending,
      clear: blogs.clearFeedPending,
      versionOf: (mark) => mark.revision,
    },
    keepEntriesMs: retentionMs + ENTRY_MARGIN_MS,
    now,
    ...(options.afterFeedAppend === undefined ? {} : { afterAppend: options.afterFeedAppend }),
    ...(options.recordFeedAhead === undefined ? {} : { recordAhead: options.recordFeedAhead }),
    leases: aheadLeases(c.markers, "record-ahead/", now),
  });
  const webhookEndpoints = endpointsStore(
    c,
    secretBox(
      sealKey === undefined
        ? databaseSecret(c, WEBHOOK_SECRETS_MARKER)
        : () => Promise.resolve(sealKey),
    ),
    options.webhookUrlPolicy ?? { allowHttpLoopback: false },
    now,
  );
  const throttle = signInThrottle(c);
  // TOTP secrets are sealed under a key of their own: derived from WEBHOOK_SECRETS_KEY when it is
  // set (one setting keeps every sealed secret's key out of the database), else kept there.
  const twoStepKey =
    sealKey === undefined
      ? databaseSecret(c, TWO_STEP_SECRETS_MARKER)
      : () => Promise.resolve(derivedKey(sealKey, "pressroom two-step secrets"));
  const twoStepService = twoStep({
    store: twoStepStore(c),
    box: secretBox(twoStepKey),
    users,
    checkPassword: currentPasswordCheck({ users, throttle }),
    throttle,
    ownedRequiring: workspaces.ownedRequiringTwoStep,
    now,
  });
  const keys = keysStore(c, {
    audit,
    now,
    ...(options.minKeyLifetimeMs === undefined
      ? {}
      : { minKeyLifetimeMs: options.minKeyLifetimeMs }),
  });
  return {
    users,
    workspaces,
    setup: firstRunSetup(c, users, workspaces),
    keys,
    rollKey: keyRoller(c, keys, {
      audit,
      ...(options.afterSuccessorInsert === undefined
        ? {}
        : { afterSuccessorInsert: options.afterSuccessorInsert }),
    }),
    rateLimits: rateLimitSettings(c, options.consumerRateLimit ?? null, audit),
    workspaceLimits: workspaceLimits(c),
    rateCounters: rateCounters(c),
    usage: usageStore(c),
    audit,
    blogs,
    changes: changesFeed({
      log,
      recorder,
      tokens: feedTokens,
      set: releasedSet(blogs),
      retentionMs,
      now,
    }),
    feedRecorder: recorder,
    transfer: workspaceTransfer({
      collections: c,
      renderer: patientRenderer(renderer),
      feedRecorder: recorder,
    }),
    tagCounts: tagCountsCache({
      compute: blogs.tagCounts,
      version: async (workspaceId) =>
        (
          await recorder.record(workspaceId, {
            bound: TAGS_RECORDED_PER_CALL,
            own: true,
          })
        ).last,
    }),
    publicFeeds: publicFeeds(c),
    authors: authorsStore(c, {
      changed: (workspaceId, authorId) =>
        markBlogsNaming({ collections: c, log }, workspaceId, authorId),
    }),
    blogAuthors: blogAuthors(c),
    preview: {
      reads: previewView,
      tokens: previewTokens(c, { now }),
      changes: previewChangesFeed({
        collections: c,
        log,
        tokens: feedTokens,
        reads: previewView,
        blogs,
        retentionMs,
        keepEntriesMs: retentionMs + ENTRY_MARGIN_MS,
        now,
      }),
    },
    sessions: sessionsStore(
      c,
      options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS,
      options.beforeSessionInsert === undefined
        ? {}
        : { beforeSessionInsert: options.beforeSessionInsert },
    ),
    invitations: invitationsStore(c, Date.now, options.afterInvitationClaim),
    passwordResetLinks: passwordResetLinks(c, now),
    emailChangeLinks: emailChangeLinks(c, now),
    accessTokens: accessTokensStore(c, now),
    throttle,
    twoStep: twoStepService,
    signInChallenges: signInChallenges(c, now),
    webhookEndpoints,
    deliveryLog: deliveryLog(c),
    manualDeliveries: (deps: Pick<ManualDeliveryDeps, "nudge" | "limits">) =>
      manualDeliveries({ collections: c, endpointOf: webhookEndpoints.get, ...deps }),
  };
}
