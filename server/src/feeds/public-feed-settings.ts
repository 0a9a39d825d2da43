import type { Collections, WorkspaceDoc } from "../platform/db/collections.js";
import { conflict, notFound } from "../platform/domain-error.js";
import { randomBase62 } from "../platform/ids.js";

/** A new public feed ID: `pf_` and 24 base62 characters (142 bits), unguessable. */
const newFeedId = (): string => `pf_${randomBase62(24)}`;

/** A workspace's public feeds as set: its feed ID and link template (openapi.yaml, "Feeds"). */
export interface PublicFeedSettings {
  readonly workspaceId: string;
  readonly workspaceName: string;
  readonly feedId: string;
  readonly linkTemplate: string;
}

/** What a change found before it, for the audit log: feeds off (null) or their template. */
export interface FeedChange {
  readonly workspace: WorkspaceDoc;
  readonly before: { readonly linkTemplate: string } | null;
}

/**
 * The workspace's public feed settings, kept on its document (`feedId`, `feedLinkTemplate`;
 * index `public_feed_id`): each change is one update of one document, atomic on MongoDB and on
 * the embedded database alike, so a renewed or withdrawn ID stops answering at once.
 */
export interface PublicFeeds {
  /** Turns feeds on with `linkTemplate` (already checked), or changes the template. */
  turnOn(workspaceId: string, linkTemplate: string): Promise<FeedChange>;
  /** Turns feeds off (the ID is forgotten); `before` is null when they were off already. */
  turnOff(workspaceId: string): Promise<FeedChange>;
  /** A new feed ID for feeds that are on; a 409 when they are off. */
  renew(workspaceId: string): Promise<WorkspaceDoc>;
  /** The feeds of this ID, or null for any ID no workspace has now. */
  byFeedId(feedId: string): Promise<PublicFeedSettings | null>;
}

export function publicFeeds({ workspaces }: Pick<Collections, "workspaces">): PublicFeeds {
  const found = (doc: WorkspaceDoc | null): WorkspaceDoc => {
    if (doc === null) throw notFound("Workspace not found.");
    return doc;
  };
  const beforeOf = (doc: WorkspaceDoc) =>
    doc.feedId === undefined || doc.feedLinkTemplate === undefined
      ? null
      : { linkTemplate: doc.feedLinkTemplate };

  return {
    async turnOn(workspaceId, linkTemplate) {
      // Keeps an existing ID; a workspace without one gets one by a second, conditional update.
      // A turnOff between the two leaves an ID without a template: off, as `byFeedId` and the
      // workspace's view read it, and that unpublished ID is the one the next turnOn keeps.
      const before = found(
        await workspaces.findOneAndUpdate(
          { _id: workspaceId },
          { $set: { feedLinkTemplate: linkTemplate } },
          { returnDocument: "before" },
        ),
      );
      if (before.feedId !== undefined) {
        return {
          workspace: { ...before, feedLinkTemplate: linkTemplate },
          before: beforeOf(before),
        };
      }
      const feedId = newFeedId();
      // Only if no other request gave it one meanwhile; then that one's ID stands.
      await workspaces.updateOne(
        { _id: workspaceId, feedId: { $exists: false } },
        { $set: { feedId } },
      );
      const now = found(await workspaces.findOne({ _id: workspaceId }));
      return { workspace: now, before: null };
    },

    async turnOff(workspaceId) {
      const before = found(
        await workspaces.findOneAndUpdate(
          { _id: workspaceId },
          { $unset: { feedId: "", feedLinkTemplate: "" } },
          { returnDocument: "before" },
        ),
      );
      const { feedId: _f, feedLinkTemplate: _t, ...rest } = before;
      return { workspace: rest, before: beforeOf(before) };
    },

    async renew(workspaceId) {
      const feedId = newFeedId();
      const before = await workspaces.findOneAndUpdate(
        { _id: workspaceId, feedId: { $exists: true } },
        { $set: { feedId } },
        { returnDocument: "before" },
      );
      if (before === null) {
        found(await workspaces.findOne({ _id: workspaceId }, { projection: { _id: 1 } }));
        throw conflict("Public feeds are off: turn them on first.");
      }
      return { ...before, feedId };
    },

    async byFeedId(feedId) {
      const doc = await workspaces.findOne(
        { feedId },
        { projection: { _id: 1, name: 1, feedId: 1, feedLinkTemplate: 1 } },
      );
      if (doc === null || doc.feedId !== feedId || doc.feedLinkTemplate === undefined) return null;
      return {
        workspaceId: doc._id,
        workspaceName: doc.name,
        feedId,
        linkTemplate: doc.feedLinkTemplate,
      };
    },
  };
}
