import { type Collection, type Db, MongoServerError } from "mongodb";
import {
  type AccessTokenDoc,
  collections,
  type EmailChangeDoc,
  type InvitationDoc,
  type KeyUsageDoc,
  type PasswordResetDoc,
  type RateCounterDoc,
  type SessionDoc,
  type SignInChallengeDoc,
  type SignInFailuresDoc,
} from "./collections.js";

/**
 * Indexes created at start-up (idempotent). Keys are found by `_id` (their hash), blogs by
 * `_id`; these cover the rest:
 * - blogs {workspaceId, status, releasedAt desc, _id desc}: the consumer list, one index range
 *   per page in release order (keyset pagination, no skip);
 * - blogs {workspaceId, status, tags, releasedAt desc, _id desc}: the consumer list filtered by
 *   tag (multikey on MongoDB: one index range per tag, merged in release order);
 * - blogs {workspaceId, status, authorIds, releasedAt desc, _id desc}: the consumer list by author
 *   (`author=`), as by one tag; and, with `status: {$in}`, the blogs an author's edit concerns;
 * - blogs {workspaceId, status, featured, releasedAt desc, _id desc}: the consumer list of
 *   featured blogs (`featured=true`), one index range per page however few they are; the
 *   archive range (`releasedAfter`, `releasedBefore`) is a range of `releasedAt` within either;
 * - blogs {workspaceId, status, textTerms, releasedAt desc, _id desc}: the consumer search
 *   (`q=`, blogs/text-search.ts), an equality on the multikey `textTerms` per whole word and an
 *   element range for the last word's prefix (`$elemMatch` of `$gte`/`$lt`: index bounds); on
 *   FerretDB the index is what gives `textTerms` its element table;
 * - blogs {workspaceId, slug} unique: slugs are unique within a workspace;
 * - blogs {workspaceId, createdAt desc, _id desc}: the dashboard's list, newest (and, read
 *   backwards, oldest) first; {workspaceId, updatedAt desc, _id desc} (`editor_updated`): the
 *   same by last edit; {workspaceId, titleKey, _id} (`editor_title`): the same A–Z;
 *   {workspaceId, searchTerms, createdAt desc, _id desc} (`editor_search`): its search, one
 *   equality on the multikey `searchTerms` per word (blogs/search-terms.ts; on FerretDB the
 *   index is what gives `searchTerms` its element table, and the list walks the sort's index);
 * - blogs {workspaceId, feedPending, _id}: the changes feed's blogs still to record (few);
 *   blogs {workspaceId, previewPending, _id}: the preview changes feed's (few);
 *   changes {blogId} (`changes_blog`): one blog's entries, which a sync's first walk checks
 *   for the blogs it leaves to their entries (changes/walk-skips.ts);
 * - workspaces {feedId}: a public feed's workspace (feeds/public-feed-settings.ts); not unique,
 *   as MongoDB's unique index would count every workspace without feeds as one null (and
 *   FerretDB has no partial index), and IDs are random (142 bits);
 * - apiKeys {keyId} unique: revoke by public id; apiKeys {workspaceId, createdAt}: list keys;
 * - apiKeys {expiryLogged, status, expiresAt}: the expiry sweep's keys still to log (few);
 * - audit {workspaceId, at desc, _id desc}: the audit log, one index range per page;
 * - blogRevisions {workspaceId, blogId, at desc, _id desc}: a blog's history, one index range per
 *   page, and the oldest beyond the bound to delete;
 * - blogStaged {workspaceId, blogId}: a removed blog's pending changes, to delete (a blog's own
 *   are read by `_id`); blogStaged {workspaceId, slug}: the preview's get by a slug as edited;
 * - authors {workspaceId, slug} unique: an author's slug is the workspace's once, and a
 *   workspace's authors (at most 200, sorted by name after the read);
 * - blogs {workspaceId, mediaIds} (`blog_media`) and blogStaged {workspaceId, mediaIds}
 *   (`staged_media`): the blogs whose live version or pending changes show a library image,
 *   which its deletion names (media/media-usage.ts; on FerretDB the index gives `mediaIds` its
 *   element table);
 * - media {workspaceId, sha256} unique: the same bytes are one library image, on every
 *   instance; media {workspaceId, createdAt desc, _id desc}: the library, one range per page;
 *   media {workspaceId, terms, createdAt desc, _id desc} (`workspace_media_search`): its search,
 *   one equality on the multikey `terms` per word (on FerretDB the index is what gives `terms`
 *   its element table);
 * - the GridFS bucket `mediaFiles` (media/media-files.ts): the driver's own indexes, under the
 *   driver's names and options, so they exist before the first upload (the driver makes them
 *   only then, and a name of ours for the same keys would conflict with them on MongoDB):
 *   mediaFiles.files {filename, uploadDate} (a stored file by name, an image's files by the
 *   range of names under its ID), mediaFiles.chunks {files_id, n} unique (a file's chunks);
 * - users {email} unique; memberships by user and by workspace; sessions by user;
 * - signInFailures {email, expiresAt} and {address, expiresAt}: the throttle's counts;
 * - passwordResets and signInChallenges are found by `_id` (their token's hash) only;
 * - emailChanges {tokenHash} unique: a confirmation link is looked up by its token's hash (an
 *   account's waiting change by `_id`, its user id);
 * - accessTokens {tokenId} unique: revoke by public id; {userId, createdAt}: a user's tokens
 *   (a token itself is found by `_id`, its hash);
 * - invitations {tokenHash} unique: a link is looked up by its token's hash;
 *   invitations {workspaceId, createdAt, _id}: a workspace's pending invitations;
 * - rateCounters and keyUsage are read by `_id` ranges only (the primary index);
 * - blogs {webhookPending, _id}: blogs whose webhook outbox holds events (few);
 *   blogs {dueAt, _id}: blogs with something scheduled, the earliest first (blogs/blog-scheduler.ts);
 *   webhookEndpoints {workspaceId, createdAt, _id}: a workspace's endpoints;
 *   webhookDeliveries {state, nextAttemptAt, _id}: deliveries due; {endpointId, blogId, state,
 *   seq}: an earlier pending delivery of the same blog to the endpoint (per-blog order);
 *   {endpointId, createdAt desc, _id desc}: an endpoint's delivery log, one range per page;
 *   {endpointId, manual, state}: an endpoint's pending test events and redeliveries (capped);
 *   webhookAttempts {deliveryId}: a log page's attempts, and the retention's; {endpointId}:
 *   a deleted endpoint's; the webhook log's retention (webhooks/retention.ts):
 *   webhookDeliveries {state, settledAt, _id} (settled ones past 30 days, one state at a time in
 *   index order), webhookEvents {occurredAt} (old events);
 * - TTL (`expireAfterSeconds: 0` on `expiresAt`; on invitations, `keepUntil`) on sessions,
 *   signInFailures, signInChallenges, passwordResets, emailChanges, accessTokens, invitations, rateCounters and keyUsage, so MongoDB
 *   deletes expired ones itself. FerretDB 1.24 refuses TTL indexes (NotImplemented): there the
 *   sweeper (platform/db/ttl-sweeper.ts) is what deletes them, and it runs on MongoDB too; a plain
 *   index of the same name on `expiresAt` serves the sweeper's query there.
 *
 * Returns whether the TTL indexes exist.
 */
export async function ensureIndexes(db: Db): Promise<{ ttlIndexes: boolean }> {
  const {
    workspaces,
    apiKeys,
    audit,
    blogs,
    blogRevisions,
    blogStaged,
    changes,
    authors,
    media,
    users,
    memberships,
    sessions,
    signInFailures,
    passwordResets,
    signInChallenges,
    emailChanges,
    accessTokens,
    invitations,
    rateCounters,
    keyUsage,
    webhookEndpoints,
    webhookDeliveries,
    webhookAttempts,
    webhookEvents,
  } = collections(db);
  // One index per command: FerretDB 1.24 drops the connection (a server-side panic) when one
  // createIndexes command names several indexes that all exist already.
  await blogs.createIndex(
    { workspaceId: 1, status: 1, releasedAt: -1, _id: -1 },
    { name: "released_list" },
  );
  await blogs.createIndex({ workspaceId: 1, slug: 1 }, { name: "workspace_slug", unique: true });
  await blogs.createIndex(
    { workspaceId: 1, status: 1, tags: 1, releasedAt: -1, _id: -1 },
    { name: "released_by_tag" },
  );
  await blogs.createIndex(
    { workspaceId: 1, status: 1, featured: 1, releasedAt: -1, _id: -1 },
    { name: "released_featured" },
  );
  await blogs.createIndex(
    { workspaceId: 1, status: 1, authorIds: 1, releasedAt: -1, _id: -1 },
    { name: "released_author" },
  );
  await blogs.createIndex(
    { workspaceId: 1, status: 1, textTerms: 1, releasedAt: -1, _id: -1 },
    { name: "released_search" },
  );
  await workspaces.createIndex({ feedId: 1 }, { name: "public_feed_id" });
  await apiKeys.createIndex({ keyId: 1 }, { name: "key_id", unique: true });
  await apiKeys.createIndex({ workspaceId: 1, createdAt: 1 }, { name: "workspace_keys" });
  await apiKeys.createIndex({ expiryLogged: 1, status: 1, expiresAt: 1 }, { name: "expiry_sweep" });
  await audit.createIndex({ workspaceId: 1, at: -1, _id: -1 }, { name: "audit_list" });
  await blogs.createIndex({ dueAt: 1, _id: 1 }, { name: "schedule_due" });
  await blogStaged.createIndex({ workspaceId: 1, blogId: 1 }, { name: "blog_staged" });
  await blogStaged.createIndex({ workspaceId: 1, slug: 1 }, { name: "blog_staged_slug" });
  await blogStaged.createIndex({ workspaceId: 1, mediaIds: 1 }, { name: "staged_media" });
  await blogs.createIndex({ workspaceId: 1, mediaIds: 1 }, { name: "blog_media" });
  await authors.createIndex(
    { workspaceId: 1, slug: 1 },
    { name: "workspace_author_slug", unique: true },
  );
  await authors.createIndex({ workspaceId: 1, nameKey: 1, slug: 1 }, { name: "workspace_authors" });
  await media.createIndex(
    { workspaceId: 1, sha256: 1 },
    { name: "workspace_media_bytes", unique: true },
  );
  await media.createIndex({ workspaceId: 1, createdAt: -1, _id: -1 }, { name: "workspace_media" });
  await media.createIndex(
    { workspaceId: 1, terms: 1, createdAt: -1, _id: -1 },
    { name: "workspace_media_search" },
  );
  await db
    .collection("mediaFiles.files")
    .createIndex({ filename: 1, uploadDate: 1 }, { name: "filename_1_uploadDate_1" });
  await db
    .collection("mediaFiles.chunks")
    .createIndex({ files_id: 1, n: 1 }, { name: "files_id_1_n_1", unique: true });
  await blogRevisions.createIndex(
    { workspaceId: 1, blogId: 1, at: -1, _id: -1 },
    { name: "blog_history" },
  );
  await blogs.createIndex({ workspaceId: 1, createdAt: -1, _id: -1 }, { name: "editor_list" });
  await blogs.createIndex({ workspaceId: 1, feedPending: 1, _id: 1 }, { name: "feed_pending" });
  await blogs.createIndex(
    { workspaceId: 1, previewPending: 1, _id: 1 },
    { name: "preview_pending" },
  );
  await changes.createIndex({ blogId: 1 }, { name: "changes_blog" });
  await blogs.createIndex({ workspaceId: 1, updatedAt: -1, _id: -1 }, { name: "editor_updated" });
  await blogs.createIndex({ workspaceId: 1, titleKey: 1, _id: 1 }, { name: "editor_title" });
  await blogs.createIndex(
    { workspaceId: 1, searchTerms: 1, createdAt: -1, _id: -1 },
    { name: "editor_search" },
  );
  await users.createIndex({ email: 1 }, { name: "email", unique: true });
  await memberships.createIndex({ userId: 1 }, { name: "user_memberships" });
  await memberships.createIndex({ workspaceId: 1 }, { name: "workspace_members" });
  await sessions.createIndex({ userId: 1 }, { name: "user_sessions" });
  await signInFailures.createIndex({ email: 1, expiresAt: 1 }, { name: "failures_by_email" });
  await signInFailures.createIndex({ address: 1, expiresAt: 1 }, { name: "failures_by_address" });
  await accessTokens.createIndex({ tokenId: 1 }, { name: "access_token_id", unique: true });
  await accessTokens.createIndex({ userId: 1, createdAt: -1 }, { name: "user_access_tokens" });
  await invitations.createIndex({ tokenHash: 1 }, { name: "invitation_token", unique: true });
  await emailChanges.createIndex({ tokenHash: 1 }, { name: "email_change_token", unique: true });
  await invitations.createIndex(
    { workspaceId: 1, createdAt: 1, _id: 1 },
    { name: "workspace_invitations" },
  );
  await blogs.createIndex({ webhookPending: 1, _id: 1 }, { name: "webhook_pending" });
  await webhookEndpoints.createIndex(
    { workspaceId: 1, createdAt: 1, _id: 1 },
    { name: "workspace_webhooks" },
  );
  await webhookDeliveries.createIndex(
    { state: 1, nextAttemptAt: 1, _id: 1 },
    { name: "due_deliveries" },
  );
  await webhookDeliveries.createIndex(
    { endpointId: 1, blogId: 1, state: 1, seq: 1 },
    { name: "blog_order" },
  );
  await webhookDeliveries.createIndex(
    { endpointId: 1, createdAt: -1, _id: -1 },
    { name: "endpoint_log" },
  );
  await webhookDeliveries.createIndex(
    { state: 1, settledAt: 1, _id: 1 },
    { name: "settled_deliveries" },
  );
  await webhookDeliveries.createIndex(
    { endpointId: 1, manual: 1, state: 1 },
    { name: "pending_manual" },
  );
  await webhookAttempts.createIndex({ deliveryId: 1 }, { name: "delivery_attempts" });
  await webhookAttempts.createIndex({ endpointId: 1 }, { name: "endpoint_attempts" });
  await webhookEvents.createIndex({ occurredAt: 1 }, { name: "event_age" });
  // The window is in each document's `expiresAt`, not in the index: a changed window never
  // meets an existing index with other options (which MongoDB refuses).
  const sessionsTtl = await ttlIndex(sessions, "session_expiry");
  const failuresTtl = await ttlIndex(signInFailures, "failure_expiry");
  const invitationsTtl = await ttlIndex(invitations, "invitation_expiry", "keepUntil");
  const resetsTtl = await ttlIndex(passwordResets, "password_reset_expiry");
  const challengesTtl = await ttlIndex(signInChallenges, "sign_in_challenge_expiry");
  const emailChangesTtl = await ttlIndex(emailChanges, "email_change_expiry");
  const tokensTtl = await ttlIndex(accessTokens, "access_token_expiry");
  const countersTtl = await ttlIndex(rateCounters, "rate_counter_expiry");
  const usageTtl = await ttlIndex(keyUsage, "key_usage_expiry");
  return {
    ttlIndexes:
      sessionsTtl &&
      failuresTtl &&
      resetsTtl &&
      challengesTtl &&
      emailChangesTtl &&
      tokensTtl &&
      invitationsTtl &&
      countersTtl &&
      usageTtl,
  };
}

/**
 * A TTL index on `expiresAt` (or `field`); false where the server has no TTL (FerretDB: NotImplemented).
 * There the same keys go into a plain index of the same name, so the sweeper's
 * `deleteMany({expiresAt: {$lte: now}})` reads only the expired documents, not the collection.
 */
async function ttlIndex(
  collection:
    | Collection<SessionDoc>
    | Collection<SignInFailuresDoc>
    | Collection<PasswordResetDoc>
    | Collection<SignInChallengeDoc>
    | Collection<EmailChangeDoc>
    | Collection<AccessTokenDoc>
    | Collection<InvitationDoc>
    | Collection<RateCounterDoc>
    | Collection<KeyUsageDoc>,
  name: string,
  field: "expiresAt" | "keepUntil" = "expiresAt",
): Promise<boolean> {
  try {
    await collection.createIndex({ [field]: 1 }, { name, expireAfterSeconds: 0 });
    return true;
  } catch (err) {
    if (!(err instanceof MongoServerError && err.code === NOT_IMPLEMENTED)) throw err;
  }
  await collection.createIndex({ [field]: 1 }, { name });
  return false;
}

const NOT_IMPLEMENTED = 238;
