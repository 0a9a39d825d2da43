import type { AuditLog } from "../audit/audit-log.js";
import type { ApiKeyDoc, Collections } from "../platform/db/collections.js";
import {
  FIRST_SWEEP_DELAY_MS,
  SWEEP_INTERVAL_MS,
  type SweeperOptions,
} from "../platform/db/ttl-sweeper.js";
import type { Logger } from "../platform/logger.js";
import { startTimerLoop } from "../platform/timers/timer-loop.js";

/**
 * Writes the `key.expired` audit entry of every key whose `expiresAt` has passed by `now` (and
 * that was not revoked first), at that time and with no actor. Idempotent and safe on several
 * instances at once: the entry's id is `${keyId}:expired`, so a second insert is a duplicate and
 * ignored; then the key is marked (`expiryLogged: true`) so no later sweep reads it again. A
 * crash between the two only repeats the ignored insert. Returns how many keys it marked.
 */
export async function logExpiredKeys(
  { apiKeys }: Pick<Collections, "apiKeys">,
  audit: AuditLog,
  now: Date,
): Promise<number> {
  let marked = 0;
  for (;;) {
    const due = await apiKeys
      .find(
        { expiryLogged: false, status: "Active", expiresAt: { $lte: now } },
        { projection: { _id: 1, keyId: 1, workspaceId: 1, expiresAt: 1 } },
      )
      .limit(BATCH)
      .toArray();
    for (const key of due) marked += await logOne(key);
    if (due.length < BATCH) return marked;
  }

  async function logOne(key: Pick<ApiKeyDoc, "_id" | "keyId" | "workspaceId" | "expiresAt">) {
    if (key.expiresAt == null) return 0;
    await audit.record({
      id: `${key.keyId}:expired`,
      workspaceId: key.workspaceId,
      actor: null,
      action: "key.expired",
      keyId: key.keyId,
      at: key.expiresAt,
    });
    const set = await apiKeys.updateOne(
      { _id: key._id, expiryLogged: false },
      { $set: { expiryLogged: true } },
    );
    return set.modifiedCount;
  }
}

const BATCH = 500;

export interface ExpirySweeper {
  /** Sweeps now (after one under way); never rejects: failures are logged. */
  sweep(): Promise<void>;
  /** Stops the timer and waits for a sweep under way. */
  close(): Promise<void>;
}

/** Runs `logExpiredKeys` on the sessions sweeper's schedule (unref'd timer). */
export function startExpirySweeper(
  collections: Pick<Collections, "apiKeys">,
  audit: AuditLog,
  log: Logger,
  options: SweeperOptions = {},
): ExpirySweeper {
  const now = options.now ?? Date.now;
  const task = startTimerLoop(
    () =>
      logExpiredKeys(collections, audit, new Date(now())).then(
        (marked) => {
          if (marked > 0) log.debug({ keys: marked }, "expired keys written to the audit log");
        },
        (err: unknown) => {
          log.warn({ err }, "writing expired keys to the audit log failed; will retry");
        },
      ),
    {
      intervalMs: options.intervalMs ?? SWEEP_INTERVAL_MS,
      firstDelayMs: options.firstDelayMs ?? FIRST_SWEEP_DELAY_MS,
    },
  );
  return { sweep: task.runNow, close: task.close };
}
