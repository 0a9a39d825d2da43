import type { Collections } from "../db/collections.js";
import { HttpError } from "../http/errors.js";

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60_000;

/**
 * Failed sign-ins are counted per email in the database (so every instance sees them): after
 * MAX_FAILURES within WINDOW_MS, further attempts get 429 until the window ends. A success
 * clears the count.
 */
export function signInThrottle({ signInFailures }: Collections) {
  const key = (email: string) => email.trim().toLowerCase();
  return {
    async check(email: string): Promise<void> {
      const doc = await signInFailures.findOne({ _id: key(email) });
      if (doc === null || doc.failures < MAX_FAILURES) return;
      const retryAfterMs = doc.windowStart.getTime() + WINDOW_MS - Date.now();
      if (retryAfterMs <= 0) return;
      throw new HttpError(429, "Too many failed sign-ins. Try again later.", {
        "Retry-After": String(Math.ceil(retryAfterMs / 1000)),
      });
    },

    async fail(email: string): Promise<void> {
      const now = new Date();
      const doc = await signInFailures.findOne({ _id: key(email) });
      if (doc === null || now.getTime() - doc.windowStart.getTime() > WINDOW_MS) {
        await signInFailures.replaceOne(
          { _id: key(email) },
          { failures: 1, windowStart: now },
          { upsert: true },
        );
        return;
      }
      await signInFailures.updateOne({ _id: key(email) }, { $inc: { failures: 1 } });
    },

    async clear(email: string): Promise<void> {
      await signInFailures.deleteOne({ _id: key(email) });
    },
  };
}

export type SignInThrottle = ReturnType<typeof signInThrottle>;
