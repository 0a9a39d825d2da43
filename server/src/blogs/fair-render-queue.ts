import { DomainError } from "../platform/domain-error.js";

/** Whose render it is: its workspace, and for an editor's preview the person asking. */
export interface RenderTag {
  readonly workspaceId: string;
  /** Set for a preview: the user whose previews are counted against `previewPerUser`. */
  readonly previewBy?: string;
}

export interface FairQueueLimits {
  /** Renders running at once in all: the pool's threads. */
  readonly running: number;
  /** Renders of one workspace running at once (below `running`, so others always get a thread). */
  readonly workspaceRunning: number;
  /** Renders of one workspace waiting or running, beyond which that workspace is refused. */
  readonly workspacePending: number;
  /** Previews of one user waiting or running, beyond which that user's previews are refused. */
  readonly previewPerUser: number;
  /** Renders waiting or running in all: the last backstop, above any one workspace's share. */
  readonly maxPending: number;
  /** The `Retry-After` of a refusal. */
  readonly retryAfterSeconds: number;
  /**
   * Heavy jobs (`run`'s `heavy`) running at once in all, below `running`; the other threads stay
   * for light ones. Unset: as many as `running`.
   */
  readonly heavyRunning?: number;
}

interface Job {
  readonly heavy: boolean;
  readonly start: () => void;
}

interface Lane {
  readonly waiting: Job[];
  running: number;
  /** Waiting or running. */
  pending: number;
}

const busy = (message: string, retryAfterSeconds: number): DomainError =>
  new DomainError("unavailable", message, retryAfterSeconds);

/**
 * Admission and order of renders, so that one tenant's slow bodies cost that tenant alone. Each
 * workspace has a queue of its own; a free thread goes to the next workspace, round-robin, that
 * has a render waiting and fewer than `workspaceRunning` running, so a workspace can never hold
 * every thread while another waits. A render is refused at once (503 with `Retry-After`, naming
 * the limit) when its workspace has `workspacePending` renders waiting or running, when its user
 * has `previewPerUser` previews so, or, last, when `maxPending` are in all.
 */
export function fairRenderQueue(limits: FairQueueLimits) {
  const lanes = new Map<string, Lane>();
  const previews = new Map<string, number>();
  /** Workspaces with renders waiting, in the order they get their next turn. */
  const turns: string[] = [];
  let running = 0;
  let heavyRunning = 0;
  let pending = 0;
  const heavyLimit = limits.heavyRunning ?? limits.running;
  if (!(heavyLimit >= 1 && heavyLimit <= limits.running)) {
    throw new Error(`heavyRunning must be 1 to running (${limits.running}), not ${heavyLimit}`);
  }

  const admit = (tag: RenderTag): void => {
    const lane = lanes.get(tag.workspaceId);
    const retry = limits.retryAfterSeconds;
    if (lane !== undefined && lane.pending >= limits.workspacePending) {
      throw busy(
        `This workspace already has ${lane.pending} blog bodies rendering or waiting to render, the most one workspace may have at once; retry shortly.`,
        retry,
      );
    }
    if (
      tag.previewBy !== undefined &&
      (previews.get(tag.previewBy) ?? 0) >= limits.previewPerUser
    ) {
      throw busy(
        `You already have ${limits.previewPerUser} previews rendering or waiting to render, the most one person may have at once; retry shortly.`,
        retry,
      );
    }
    if (pending >= limits.maxPending) {
      throw busy("The server is busy rendering other blogs; retry shortly.", retry);
    }
  };

  /**
   * Which of a lane's waiting jobs starts next: its first, or, while `heavyRunning` heavy jobs run,
   * its first light one; -1 for none.
   */
  const startable = (lane: Lane): number => {
    if (heavyRunning < heavyLimit) return lane.waiting.length > 0 ? 0 : -1;
    return lane.waiting.findIndex((job) => !job.heavy);
  };

  /**
   * Starts renders while threads are free, each time the next workspace's in turn (`startable`).
   * A workspace whose waiting jobs are all heavy while `heavyRunning` run is passed over and keeps
   * its place in the turns, so heavy jobs start in the turns' order when one ends.
   */
  const pump = (): void => {
    while (running < limits.running) {
      const at = turns.findIndex((id) => {
        const lane = lanes.get(id);
        if (lane === undefined || lane.running >= limits.workspaceRunning) return false;
        return startable(lane) !== -1;
      });
      if (at === -1) return;
      const id = turns[at] ?? "";
      const lane = lanes.get(id);
      const index = lane === undefined ? -1 : startable(lane);
      const job = index === -1 ? undefined : lane?.waiting.splice(index, 1)[0];
      if (lane === undefined || job === undefined) return;
      turns.splice(at, 1);
      if (lane.waiting.length > 0) turns.push(id);
      lane.running++;
      running++;
      if (job.heavy) heavyRunning++;
      job.start();
    }
  };

  return {
    /**
     * Refuses now (DomainError "unavailable") a render of `tag` that `run` would refuse now;
     * otherwise nothing. For callers that can refuse before they read the body to render.
     */
    admit,
    /**
     * Runs `work` in `tag`'s turn, when a thread is free for its workspace (and, `heavy`, when
     * fewer than `heavyRunning` heavy jobs run); refuses it at once (DomainError "unavailable")
     * past a limit.
     */
    run<T>(tag: RenderTag, work: () => Promise<T>, heavy = false): Promise<T> {
      admit(tag);
      const { workspaceId, previewBy } = tag;
      let lane = lanes.get(workspaceId);
      if (lane === undefined) {
        lane = { waiting: [], running: 0, pending: 0 };
        lanes.set(workspaceId, lane);
      }
      const own = lane;
      own.pending++;
      pending++;
      if (previewBy !== undefined) previews.set(previewBy, (previews.get(previewBy) ?? 0) + 1);
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          let done: Promise<T>;
          try {
            done = work();
          } catch (err) {
            // Work that throws at once still frees its thread.
            done = Promise.reject(err);
          }
          done.then(resolve, reject).finally(() => {
            own.running--;
            own.pending--;
            running--;
            if (heavy) heavyRunning--;
            pending--;
            if (own.pending === 0) lanes.delete(workspaceId);
            if (previewBy !== undefined) {
              const left = (previews.get(previewBy) ?? 1) - 1;
              if (left === 0) previews.delete(previewBy);
              else previews.set(previewBy, left);
            }
            pump();
          });
        };
        own.waiting.push({ heavy, start });
        if (own.waiting.length === 1) turns.push(workspaceId);
        pump();
      });
    },
    /** Renders waiting or running, in all and per workspace (for tests and metrics). */
    counts: () => ({ running, heavyRunning, pending, workspaces: lanes.size }),
  };
}
