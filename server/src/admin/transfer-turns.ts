import { DomainError } from "../platform/domain-error.js";

/** Imports and exports running at once on one server, of all workspaces. */
export const TRANSFERS_AT_ONCE = 2;
/** What a refused import or export is told to wait, in seconds. */
const RETRY_AFTER_SECONDS = 5;

export const WORKSPACE_BUSY_MESSAGE =
  "An import or export of this workspace is already running on this server; retry shortly.";
export const serverBusyMessage = (most: number): string =>
  `${most} imports or exports are already running on this server, the most it runs at once; retry shortly.`;

/**
 * Turns for imports and exports (admin.yaml `importBlogs`, `exportWorkspace`): each holds a
 * whole set of a workspace's blogs in memory and keeps its renders busy, so one workspace has
 * one at a time, and the server at most `most` — another is refused with 503 and Retry-After,
 * which `pressroom --server` waits out. Per process: every server process (README, "Workers")
 * keeps its own.
 */
export interface TransferTurns {
  /** Throws the refusal `run` would throw now: an import is refused before its body is read. */
  check(workspaceId: string): void;
  /** Runs `work` in the workspace's turn, or throws the refusal (DomainError "unavailable"). */
  run<T>(workspaceId: string, work: () => Promise<T>): Promise<T>;
}

export function transferTurns(most: number = TRANSFERS_AT_ONCE): TransferTurns {
  const running = new Set<string>();
  const check = (workspaceId: string): void => {
    if (running.has(workspaceId)) {
      throw new DomainError("unavailable", WORKSPACE_BUSY_MESSAGE, RETRY_AFTER_SECONDS);
    }
    if (running.size >= most) {
      throw new DomainError("unavailable", serverBusyMessage(most), RETRY_AFTER_SECONDS);
    }
  };
  return {
    check,
    async run(workspaceId, work) {
      check(workspaceId);
      running.add(workspaceId);
      try {
        return await work();
      } finally {
        running.delete(workspaceId);
      }
    },
  };
}
