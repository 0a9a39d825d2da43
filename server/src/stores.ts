import type { Db } from "mongodb";
import { blogsStore } from "./blogs/blogs-store.js";
import { type BodyRenderer, inlineRenderer } from "./blogs/render-pool.js";
import { collections } from "./db/collections.js";
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
}

const DEFAULT_SESSION_TTL_MS = 168 * 3_600_000;

/**
 * Every store of the domain, over one database: the one place they are built, for the server
 * (app.ts), the operator's CLI, the tests and the benchmark's seeding alike.
 */
export function createStores(db: Db, options: StoreOptions = {}) {
  const c = collections(db);
  const users = usersStore(c);
  const workspaces = workspacesStore(c, users);
  return {
    users,
    workspaces,
    setup: firstRunSetup(c, users, workspaces),
    keys: keysStore(c),
    blogs: blogsStore(c, options.renderer ?? inlineRenderer),
    sessions: sessionsStore(c, options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS),
    throttle: signInThrottle(c),
  };
}

export type Stores = ReturnType<typeof createStores>;
