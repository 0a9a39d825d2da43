import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { reserveOf } from "../../server/src/limits/rate-limit-policy.js";
import { RateLimiter } from "../../server/src/limits/rate-limiter.js";
import { createLogger } from "../../server/src/platform/logger.js";

/**
 * The bound README's "Rate limits" states, as a property: n limiters (instances) sharing one
 * store, whose writes and reads each take a random time so that they interleave in many ways,
 * never admit more than `limit + (n - 1) × reserve` requests in a window, and one alone admits
 * exactly the limit.
 */
function sharedStore(delays: () => number) {
  const docs = new Map<string, number>();
  const pause = () => new Promise((r) => setTimeout(r, delays()));
  return {
    async exchange(
      keyId: string,
      windowStart: number,
      _end: number,
      instance: string,
      own: number,
    ) {
      await pause();
      const id = `${keyId}/${windowStart}/${instance}`;
      docs.set(id, Math.max(docs.get(id) ?? 0, own));
      await pause();
      let total = 0;
      for (const [docId, n] of docs) if (docId.startsWith(`${keyId}/${windowStart}/`)) total += n;
      return total;
    },
  };
}

const log = createLogger("silent");
const NOW = 1_800_000_000_000;

async function admitted(instances: number, requests: number, attempts: number, seed: number) {
  let s = seed;
  const random = () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const store = sharedStore(() => Math.floor(random() * 3));
  const limiters = Array.from(
    { length: instances },
    () => new RateLimiter(store, log, { flushMs: 1 + Math.floor(random() * 5), now: () => NOW }),
  );
  const limit = { requests, windowSeconds: 60 };
  let allowed = 0;
  let next = 0;
  // Eight concurrent clients, each request sent to a random instance.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < attempts) {
        next += 1;
        const limiter = limiters[Math.floor(random() * instances)];
        if (limiter === undefined) continue;
        if ((await limiter.check("key_1", limit)).allowed) allowed += 1;
        if (random() < 0.3) await new Promise((r) => setTimeout(r, Math.floor(random() * 3)));
      }
    }),
  );
  await Promise.all(limiters.map((l) => l.close()));
  return allowed;
}

describe('rate limits: the slack bound (README, "Rate limits")', () => {
  it("n instances never admit more than limit + (n - 1) × reserve in a window (100 random runs)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        async (instances, requests, seed) => {
          const got = await admitted(instances, requests, requests * 3 + 10, seed);
          expect(got).toBeLessThanOrEqual(requests + (instances - 1) * reserveOf(requests));
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);

  it("one instance admits exactly the limit", async () => {
    for (const requests of [1, 2, 5, 20, 21, 100]) {
      expect(await admitted(1, requests, requests * 2 + 5, requests)).toBe(requests);
    }
  });
});
