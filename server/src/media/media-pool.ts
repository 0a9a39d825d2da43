import { fairRenderQueue } from "../blogs/fair-render-queue.js";
import { DomainError } from "../platform/domain-error.js";

/**
 * Images of one workspace being processed or waiting, beyond which that workspace is refused: a
 * library screen asks for a page of new thumbnails at once (24), each made in turn.
 */
const WORKSPACE_PENDING = 32;

/**
 * Image work (an upload's normalising, a copy's making) in a bounded pool shared fairly by
 * workspaces (admin.yaml `MediaBusy`): the render queue's rules (blogs/fair-render-queue.ts) with
 * one image at a time per workspace, two in all (sharp uses libvips' own threads for each), of
 * which one heavy (`heavy`, image-memory.ts: an AVIF decoded or encoded whole, up to ~44 bytes
 * a pixel, a WebP encoded again, a large image turned in memory or a large progressive JPEG
 * decoded, so two at once would hold twice that), at most 32 of a workspace waiting or running
 * and 128 in all; past them, 503 with `Retry-After`.
 */
export function mediaPool() {
  const queue = fairRenderQueue({
    running: 2,
    heavyRunning: 1,
    workspaceRunning: 1,
    workspacePending: WORKSPACE_PENDING,
    previewPerUser: Number.MAX_SAFE_INTEGER,
    maxPending: 128,
    retryAfterSeconds: 1,
  });
  return {
    /** Runs `work` in `workspaceId`'s turn; `heavy` (image-memory.ts) when it holds much memory. */
    run<T>(workspaceId: string, work: () => Promise<T>, heavy = false): Promise<T> {
      try {
        queue.admit({ workspaceId });
      } catch {
        throw new DomainError(
          "unavailable",
          "Too many images of this workspace are being processed: try again in 1 second.",
          1,
        );
      }
      return queue.run({ workspaceId }, work, heavy);
    },
  };
}

export type MediaPool = ReturnType<typeof mediaPool>;
