import type { Collections, RateCounterDoc } from "../platform/db/collections.js";

/** How long a window's counters are kept after the window ends (they are never read then). */
const KEEP_AFTER_WINDOW_MS = 60_000;

/** The shared counts of the rate limiter (rate-limiter.ts), per key and window, over instances. */
export interface RateCounters {
  /**
   * Stores this instance's total for the window (`$max`: never moves it back), then reads the
   * window's total over every instance. Two round trips; the caller runs one at a time per
   * document (rate-limiter.ts).
   */
  exchange(
    keyId: string,
    windowStart: number,
    windowEnd: number,
    instanceId: string,
    ownTotal: number,
  ): Promise<number>;
}

/**
 * Per key and window, one document per server instance (`_id` = key id / window start /
 * instance id), written by that instance alone with `$max` of its own running total — so a write
 * retried after a timeout counts nothing twice, which a shared `$inc` could. A window's total is
 * the sum over its documents: one `_id` range.
 */
export function rateCounters({ rateCounters }: Pick<Collections, "rateCounters">): RateCounters {
  return {
    async exchange(
      keyId: string,
      windowStart: number,
      windowEnd: number,
      instanceId: string,
      ownTotal: number,
    ): Promise<number> {
      const prefix = `${keyId}/${windowStart}/`;
      await rateCounters.updateOne(
        { _id: `${prefix}${instanceId}` },
        {
          $max: { n: ownTotal },
          $setOnInsert: { expiresAt: new Date(windowEnd + KEEP_AFTER_WINDOW_MS) },
        },
        { upsert: true },
      );
      // "/" + 1 is "0": every _id that starts with the prefix, and nothing else.
      const docs = await rateCounters
        .find({ _id: { $gt: prefix, $lt: `${keyId}/${windowStart}0` } }, { projection: { n: 1 } })
        // In _id order: on the embedded database the index's own order, with no sort step.
        .sort({ _id: 1 })
        .toArray();
      let total = 0;
      for (const doc of docs as Pick<RateCounterDoc, "n">[]) total += doc.n;
      return total;
    },
  };
}
