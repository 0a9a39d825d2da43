/**
 * Requests stopped at a point of their own (a store's test hook) until the test lets them go:
 * `hold(id)` marks the next request that passes the point with `id`; the hook, `pass(id)`,
 * then waits there once, after telling `reached`, until `release()` is called. Ids not held
 * pass at once. For races that must happen in one order (a write between a check and its use).
 */
export function holdPoints() {
  const holds = new Map<string, { reached: () => void; release: Promise<void> }>();
  return {
    hold(id: string): { reached: Promise<void>; release: () => void } {
      let reached!: () => void;
      let release!: () => void;
      const reachedP = new Promise<void>((r) => {
        reached = r;
      });
      const releaseP = new Promise<void>((r) => {
        release = r;
      });
      holds.set(id, { reached, release: releaseP });
      return { reached: reachedP, release };
    },
    async pass(id: string): Promise<void> {
      const hold = holds.get(id);
      if (hold === undefined) return;
      holds.delete(id);
      hold.reached();
      await hold.release;
    },
  };
}
