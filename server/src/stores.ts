import type { Db } from "mongodb";
import { blogsStore } from "./blogs/blogs-store.js";
import { type BodyRenderer, inlineRenderer } from "./blogs/render-pool.js";
import { tagCountsCache } from "./blogs/tag-counts-cache.js";
import { changeLog } from "./changes/change-log.js";
import { changeRecorder } from "./changes/change-recorder.js";
import { changeTokens } from "./changes/change-token.js";
import { changesFeed } from "./changes/changes-feed.js";
import { collections } from "./db/collections.js";
import { invitationsStore } from "./invitations/invitations-store.js";
import { keysStore } from "./keys/keys-store.js";
import { sessionsStore } from "./sessions/sessions-store.js";
import { signInThrottle } from "./sessions/sign-in-throttle.js";
import { firstRunSetup } from "./users/first-run-setup.js";
import { usersStore } from "./users/users-store.js";
import { workspacesStore } from "./workspaces/workspaces-store.js";

export interface StoreOptions {
  /**
   * What renders blog bodies: the server passes its pool of worker threads (render-pool.ts);
   * by default the same render on the calling thread, for the CLI, tests and seeding.
   */
  readonly renderer?: BodyRenderer;
  /** Lifetime of a dashboard session (config `SESSION_TTL_HOURS`); default 168 hours. */
  readonly sessionTtlMs?: number;
  /** How long a changes-feed token stays usable (config `CHANGES_RETENTION_DAYS`); default 30 days. */
  readonly changesRetentionMs?: number;
  /** The clock of the changes feed, in epoch ms; tests pass their own. */
  readonly now?: () => number;
  /** Tests only: holds a changes-feed recording between an entry and clearing its blog's mark. */
  readonly afterFeedAppend?: (blogId: string) => Promise<void>;
}

const DEFAULT_SESSION_TTL_MS = 168 * 3_600_000;
const DEFAULT_CHANGES_RETENTION_MS = 30 * 86_400_000;
/** Entries are kept a day longer than tokens, so clocks a little apart never lose one. */
const ENTRY_MARGIN_MS = 86_400_000;

/**
 * Every store of the domain, over one database: the one place they are built, for the server
 * (app.ts), the operator's CLI, the tests and the benchmark's seeding alike.
 */
export function createStores(db: Db, options: StoreOptions = {}) {
  const c = collections(db);
  const users = usersStore(c);
  const workspaces = workspacesStore(c, users);
  const blogs = blogsStore(c, options.renderer ?? inlineRenderer);
  const now = options.now ?? Date.now;
  const retentionMs = options.changesRetentionMs ?? DEFAULT_CHANGES_RETENTION_MS;
  const log = changeLog(c);
  const recorder = changeRecorder({
    log,
    blogs,
    clearFeedPending: blogs.clearFeedPending,
    keepEntriesMs: retentionMs + ENTRY_MARGIN_MS,
    now,
    ...(options.afterFeedAppend === undefined ? {} : { afterAppend: options.afterFeedAppend }),
  });
  return {
    users,
    workspaces,
    setup: firstRunSetup(c, users, workspaces),
    keys: keysStore(c),
    blogs,
    changes: changesFeed({ log, recorder, tokens: changeTokens(c), blogs, retentionMs, now }),
    /** `GET /tags`: `blogs.tagCounts`, computed once per change of the workspace's feed. */
    tagCounts: tagCountsCache({ compute: blogs.tagCounts, version: recorder.record }),
    sessions: sessionsStore(c, options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS),
    invitations: invitationsStore(c),
    throttle: signInThrottle(c),
  };
}

export type Stores = ReturnType<typeof createStores>;
