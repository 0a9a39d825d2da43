import type { Collections, UserDoc, WorkspaceDoc } from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { conflict } from "../platform/domain-error.js";
import type { NewUser, UsersStore } from "../users/users-store.js";
import type { WorkspacesStore } from "../workspaces/workspaces-store.js";

export interface SetupInput extends NewUser {
  workspaceName: string;
}

/** What first-run setup made: the owner account and its workspace. */
export interface SetupResult {
  user: UserDoc;
  workspace: WorkspaceDoc;
}

/** First-run setup: the owner account and its first workspace, once ever. */
export interface FirstRunSetup {
  /** Whether setup is still to be done (no setup has happened on any instance). */
  needed(): Promise<boolean>;
  /**
   * The owner and the workspace; "conflict" when setup happened already, on any instance. When
   * making them fails, setup is to be done again.
   */
  run(input: SetupInput): Promise<SetupResult>;
}

/**
 * A marker document (`markers`, `_id: "setup"`) records that setup happened; its unique `_id`
 * lets exactly one caller through, on every instance.
 */
export function firstRunSetup(
  { markers }: Collections,
  users: Pick<UsersStore, "create">,
  workspaces: Pick<WorkspacesStore, "create">,
): FirstRunSetup {
  return {
    async needed(): Promise<boolean> {
      return (await markers.countDocuments({ _id: "setup" }, { limit: 1 })) === 0;
    },

    async run(input: SetupInput): Promise<SetupResult> {
      try {
        await markers.insertOne({ _id: "setup", at: new Date() });
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict("Pressroom is set up already.");
        throw err;
      }
      try {
        const user = await users.create(input);
        const workspace = await workspaces.create(input.workspaceName, user._id);
        return { user, workspace };
      } catch (err) {
        // Leave setup open again rather than locked with no owner.
        await markers.deleteOne({ _id: "setup" });
        throw err;
      }
    },
  };
}
