import type { Collections } from "../platform/db/collections.js";
import { keyedQueue } from "../platform/timers/keyed-queue.js";
import { lastOwner } from "./workspace-rules.js";

/** A change that takes an owner away (a demotion, a removal), and how to take it back. */
export interface OwnerLoss {
  write(): Promise<void>;
  undo(): Promise<void>;
}

/** Keeps every workspace with at least one owner. */
export interface OwnerGuard {
  /** Applies `change` unless it would leave `workspaceId` without an owner ("conflict"). */
  takeAwayOwner(workspaceId: string, change: OwnerLoss): Promise<void>;
}

/**
 * Without transactions (FerretDB has none, and a count then a write is not atomic on MongoDB
 * either):
 *
 * - In this process, changes that take an owner away run one at a time per workspace, so two
 *   owners demoting each other here see each other's change: the second gets 409.
 * - Across processes (several instances, or the CLI), each change is checked before it is
 *   written (another owner must remain), written, and counted again: when the workspace then
 *   has no owner, the change is undone and answered 409. Of any set of such changes that all
 *   stay, the one counted last saw every other already written and at least one owner left;
 *   later steps only undo changes or add owners. So the workspace never ends without an owner:
 *   two simultaneous demotions on two instances end with one of them (or both) refused.
 *
 * What it cannot cover: a process that dies between the write and the undo. Then the
 * workspace may be left without an owner until an operator repairs it.
 */
export function ownerGuard({ memberships }: Collections): OwnerGuard {
  const serial = keyedQueue();
  const owners = (workspaceId: string) =>
    memberships.countDocuments({ workspaceId, role: "owner" });
  return {
    takeAwayOwner(workspaceId: string, change: OwnerLoss): Promise<void> {
      return serial(workspaceId, async () => {
        if ((await owners(workspaceId)) <= 1) throw lastOwner();
        await change.write();
        if ((await owners(workspaceId)) === 0) {
          await change.undo();
          throw lastOwner();
        }
      });
    },
  };
}
