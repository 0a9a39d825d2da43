import { feedUrlsOf } from "../feeds/feed-urls.js";
import type { Role, WorkspaceDoc } from "../platform/db/collections.js";
import type { Member, Workspace } from "../platform/http/admin-types.js";
import { toUser } from "../users/user-view.js";
import type { MemberOf } from "./workspaces-store.js";

/**
 * Stored workspace and the caller's role in it → the admin spec's `Workspace`; `origin` is this
 * server's public origin, which the public feeds' addresses are on.
 */
export const toWorkspace = (doc: WorkspaceDoc, role: Role, origin: string): Workspace => ({
  id: doc._id,
  name: doc.name,
  role,
  createdAt: doc.createdAt.toISOString(),
  previewUrl: doc.previewUrl ?? null,
  ownersNeedTwoStep: doc.ownersNeedTwoStep === true,
  publicFeeds:
    doc.feedId === undefined || doc.feedLinkTemplate === undefined
      ? null
      : {
          feedId: doc.feedId,
          linkTemplate: doc.feedLinkTemplate,
          urls: feedUrlsOf(origin, doc.feedId),
        },
});

/** A membership and its account → the admin spec's `Member`. */
export const toMember = ({ membership, user }: MemberOf): Member => ({
  user: toUser(user),
  role: membership.role,
  addedAt: membership.createdAt.toISOString(),
});
