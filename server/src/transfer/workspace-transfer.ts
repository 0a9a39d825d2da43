/**
 * An import and an export as one call each, for both places that run them: `pressroom import`
 * and `export` on the server's machine (cli/transfer-commands.ts) and the admin API's
 * `importBlogs` and `exportWorkspace` (admin/transfer-routes.ts), which `pressroom --server`
 * calls. Readers stay on the caller's side: only the format-neutral set (import-set.ts) travels.
 */
import type { BodyRenderer } from "../blogs/render-pool.js";
import { type ChangeRecorder, recordEveryMark } from "../changes/change-recorder.js";
import type { Collections } from "../platform/db/collections.js";
import { DomainError } from "../platform/domain-error.js";
import { exportWorkspace, type WorkspaceExport } from "./export-workspace.js";
import { type ApplyResult, applyImport, unfinishedImport } from "./import-apply.js";
import { type ImportPlan, planImport } from "./import-plan.js";
import type { ImportEntries, OnProgress } from "./import-set.js";

export interface ImportOptions {
  /** Plan only: nothing is written. */
  readonly dryRun: boolean;
  /** What the set was read from, named in the unfinished-import marker (import-apply.ts). */
  readonly source: string;
  readonly now: Date;
  readonly onProgress?: OnProgress;
  /** Renders kept going at once while planning (import-plan.ts `RENDERS_AT_ONCE` by default). */
  readonly rendersAtOnce?: number;
  /**
   * Tells the caller of an earlier import that did not finish, before planning (the CLI prints
   * it; running this import completes it).
   */
  readonly onUnfinished?: (unfinished: { startedAt: Date; source: string }) => void;
}

export interface ImportOutcome {
  readonly plan: ImportPlan;
  /** What was written; null on a dry run. */
  readonly applied: ApplyResult | null;
}

export interface WorkspaceTransfer {
  /** Plans `set` into `workspaceId` and, unless a dry run, writes it; throws ImportInputError. */
  importSet(
    workspaceId: string,
    set: ImportEntries,
    options: ImportOptions,
  ): Promise<ImportOutcome>;
  /** The workspace in Pressroom's own format (export-workspace.ts). */
  exportOf(workspaceId: string, now: Date): Promise<WorkspaceExport>;
}

/** Longest a render of an import waits in all for its workspace's turn when the pool is busy. */
const BUSY_WAIT_MS = 30_000;
const BUSY_RETRY_MS = 250;

/**
 * The renderer an import uses: when the workspace's renders are at their limit (an editor
 * saving meanwhile, a preview), a render waits and tries again rather than failing the whole
 * import as "busy"; a body the renderer refuses is still refused at once.
 */
export function patientRenderer(
  renderer: Pick<BodyRenderer, "render">,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Pick<BodyRenderer, "render"> {
  return {
    async render(source, tag) {
      for (let waited = 0; ; waited += BUSY_RETRY_MS) {
        try {
          return await renderer.render(source, tag);
        } catch (err) {
          const busy = err instanceof DomainError && err.code === "unavailable";
          if (!busy || waited >= BUSY_WAIT_MS) throw err;
          await sleep(BUSY_RETRY_MS);
        }
      }
    },
  };
}

export function workspaceTransfer(deps: {
  readonly collections: Pick<
    Collections,
    | "workspaces"
    | "blogs"
    | "blogStaged"
    | "markers"
    | "apiKeys"
    | "webhookEndpoints"
    | "authors"
    | "media"
  >;
  readonly renderer: Pick<BodyRenderer, "render">;
  /** The live changes feed's recorder: what the import marked is recorded before it returns. */
  readonly feedRecorder: ChangeRecorder;
}): WorkspaceTransfer {
  const c = deps.collections;
  return {
    async importSet(workspaceId, set, options) {
      const progress = options.onProgress ?? (() => {});
      if (options.onUnfinished !== undefined) {
        const unfinished = await unfinishedImport(c, workspaceId);
        if (unfinished !== null) options.onUnfinished(unfinished);
      }
      const plan = await planImport(
        c,
        deps.renderer,
        workspaceId,
        set,
        progress,
        options.rendersAtOnce,
      );
      if (options.dryRun) return { plan, applied: null };
      const applied = await applyImport(c, plan, {
        source: options.source,
        now: options.now,
        onProgress: progress,
      });
      await recordForTheFeed(c, deps.feedRecorder, workspaceId, progress);
      return { plan, applied };
    },

    exportOf: (workspaceId, now) => exportWorkspace(c, workspaceId, now),
  };
}

/**
 * The import marked each blog it released or changed for the changes feed, as a release does;
 * recording those marks before the import returns spares a site's first changes call or sync
 * after it the work (README, "How the changes feed stays exact without transactions"). It is the
 * server's own recording, exact across processes; if the import stops midway, the feed's calls
 * record the rest.
 */
async function recordForTheFeed(
  c: Pick<Collections, "blogs">,
  recorder: ChangeRecorder,
  workspaceId: string,
  onProgress: OnProgress,
): Promise<void> {
  const waiting = await c.blogs.countDocuments({ workspaceId, feedPending: true });
  if (waiting === 0) return;
  const step = "Recording for the changes feed";
  onProgress(step, 0, waiting);
  await recordEveryMark(recorder, workspaceId, (recorded) =>
    onProgress(step, Math.min(recorded, waiting), waiting),
  );
}
