import type { Collections, InvitationDoc, Role } from "../platform/db/collections.js";
import { newId } from "../platform/ids.js";
import { normalEmail } from "../users/users-store.js";
import {
  hashInvitationToken,
  INVITATION_KEEP_MS,
  INVITATION_TTL_MS,
  isTokenShaped,
  newInvitationToken,
} from "./invitation-rules.js";

/** An invitation an owner sends. */
export interface NewInvitation {
  workspaceId: string;
  email: string;
  role: Role;
  invitedBy: string;
}

/** An invitation just made, and its link's token. */
export interface CreatedInvitation {
  doc: InvitationDoc;
  token: string;
}

/**
 * Invitations (the rules: invitation-rules.ts). Of any number of accepts of one link, on any
 * instances, one claims it (`claim`).
 */
export interface InvitationsStore {
  /** A new invitation, and its link's token: the only time the token exists outside a link. */
  create(input: NewInvitation): Promise<CreatedInvitation>;
  /** Not accepted and not expired, oldest first. */
  pending(workspaceId: string): Promise<InvitationDoc[]>;
  /**
   * A new link for the workspace's invitation not accepted yet, sent by `invitedBy`: the old
   * token stops working (its hash is replaced), and it holds 7 days from now. Null when there is
   * no such invitation (accepted, withdrawn or unknown).
   */
  renew(
    workspaceId: string,
    invitationId: string,
    invitedBy: string,
  ): Promise<CreatedInvitation | null>;
  /** Deletes a pending invitation of the workspace; false when there is none. */
  withdraw(workspaceId: string, invitationId: string): Promise<boolean>;
  /**
   * Deletes the pending invitations `inviterId` sent for the workspace (they stopped being an
   * owner of it); the ids of those it deleted.
   */
  withdrawAllBy(workspaceId: string, inviterId: string): Promise<string[]>;
  /** Deletes an invitation, claimed or not (its sender is no owner any more); false if gone. */
  drop(invitationId: string): Promise<boolean>;
  /** The invitation of a link's token, or null (a malformed token reads nothing). */
  byToken(token: string): Promise<InvitationDoc | null>;
  /** Marks the invitation used; the time it was marked, or null when it was used already. */
  claim(invitationId: string): Promise<Date | null>;
  /** Takes back a claim whose joining failed, so the link can be used again. */
  release(invitationId: string, claimedAt: Date): Promise<void>;
  /** Records who joined with a claimed invitation. */
  acceptedBy(invitationId: string, userId: string): Promise<void>;
}

/**
 * A link is used by compare-and-set on `acceptedAt` (null → the time of use): one update is
 * atomic on MongoDB and on the embedded database alike (server/embedded-db/README.md,
 * "Single-document writes are atomic"), so of two accepts on any instances one wins, and the
 * loser finds `acceptedAt` set.
 */
export function invitationsStore(
  { invitations }: Collections,
  now: () => number = Date.now,
  /** Tests only: holds an accept after its claim, before it joins. */
  afterClaim?: (invitationId: string) => Promise<void>,
): InvitationsStore {
  return {
    async create(input: NewInvitation): Promise<CreatedInvitation> {
      const { token, tokenHash } = newInvitationToken();
      const createdAt = new Date(now());
      const expiresAt = new Date(createdAt.getTime() + INVITATION_TTL_MS);
      const doc: InvitationDoc = {
        _id: newId("inv"),
        tokenHash,
        workspaceId: input.workspaceId,
        email: normalEmail(input.email),
        role: input.role,
        invitedBy: input.invitedBy,
        createdAt,
        expiresAt,
        keepUntil: new Date(expiresAt.getTime() + INVITATION_KEEP_MS),
        acceptedAt: null,
        acceptedBy: null,
      };
      await invitations.insertOne(doc);
      return { doc, token };
    },

    async renew(workspaceId: string, invitationId: string, invitedBy: string) {
      const { token, tokenHash } = newInvitationToken();
      const expiresAt = new Date(now() + INVITATION_TTL_MS);
      const doc = await invitations.findOneAndUpdate(
        { _id: invitationId, workspaceId, acceptedAt: null },
        {
          $set: {
            tokenHash,
            invitedBy,
            expiresAt,
            keepUntil: new Date(expiresAt.getTime() + INVITATION_KEEP_MS),
          },
        },
        { returnDocument: "after" },
      );
      return doc === null ? null : { doc, token };
    },

    async pending(workspaceId: string): Promise<InvitationDoc[]> {
      const all = await invitations.find({ workspaceId }).sort({ createdAt: 1, _id: 1 }).toArray();
      const at = now();
      return all.filter((i) => i.acceptedAt === null && i.expiresAt.getTime() > at);
    },

    async withdraw(workspaceId: string, invitationId: string): Promise<boolean> {
      const res = await invitations.deleteOne({
        _id: invitationId,
        workspaceId,
        acceptedAt: null,
      });
      return res.deletedCount === 1;
    },

    async withdrawAllBy(workspaceId: string, inviterId: string): Promise<string[]> {
      const sent = await invitations
        .find({ workspaceId, invitedBy: inviterId, acceptedAt: null })
        .sort({ createdAt: 1, _id: 1 })
        .toArray();
      const deleted: string[] = [];
      for (const doc of sent) {
        const res = await invitations.deleteOne({ _id: doc._id, acceptedAt: null });
        if (res.deletedCount === 1) deleted.push(doc._id);
      }
      return deleted;
    },

    async drop(invitationId: string): Promise<boolean> {
      const res = await invitations.deleteOne({ _id: invitationId });
      return res.deletedCount === 1;
    },

    byToken(token: string): Promise<InvitationDoc | null> {
      if (!isTokenShaped(token)) return Promise.resolve(null);
      return invitations.findOne({ tokenHash: hashInvitationToken(token) });
    },

    async claim(invitationId: string): Promise<Date | null> {
      const at = new Date(now());
      const res = await invitations.updateOne(
        { _id: invitationId, acceptedAt: null },
        { $set: { acceptedAt: at } },
      );
      if (res.modifiedCount !== 1) return null;
      await afterClaim?.(invitationId);
      return at;
    },

    async release(invitationId: string, claimedAt: Date): Promise<void> {
      await invitations.updateOne(
        { _id: invitationId, acceptedAt: claimedAt },
        { $set: { acceptedAt: null } },
      );
    },

    async acceptedBy(invitationId: string, userId: string): Promise<void> {
      await invitations.updateOne({ _id: invitationId }, { $set: { acceptedBy: userId } });
    },
  };
}
