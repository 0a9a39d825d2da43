/**
 * Runs work for one key at a time in this process, in call order; different keys run in
 * parallel. Resolves or rejects as `work` does; a rejection does not hold up the key's next work.
 */
export type KeyedQueue = <T>(key: string, work: () => Promise<T>) => Promise<T>;

/** A new queue. A key's entry is dropped once its last work settles, so idle keys cost nothing. */
export function keyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
