/**
 * A young-generation collection on request, for code that turns many megabytes into garbage in
 * a burst it can see the end of (an upload: the request's chunks, then the driver's copies of
 * each GridFS chunk). V8 collects garbage ArrayBuffers of the young generation only when its
 * young objects fill up, or when ~32 MB of their backing stores are waiting (`Heap::
 * AllocateExternalBackingStore`, twice the default semi-space): an upload of 10 MB reached a
 * peak of +22–35 MB over idle that way, all of it garbage (BENCHMARKS.md "Media: an upload's
 * peak memory"). A young collection costs ~0.5–3 ms (it visits live young objects only, never
 * the garbage) and frees those backing stores, so the next megabytes reuse their memory.
 *
 * V8's `gc` extension is how: `--expose-gc` set for a moment, so that a new context gets the
 * function, then unset again (the app's own context never gets a `gc` global). Where that is
 * refused (a future Node, a flag), `collectYoungGarbage` does nothing: memory then peaks as
 * V8 alone decides.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type Collector = (options: { type: "minor"; execution: "sync" }) => void;

let collector: Collector | null | undefined;

function collectorOf(): Collector | null {
  if (collector !== undefined) return collector;
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined");
    collector = typeof gc === "function" ? (gc as Collector) : null;
  } catch {
    collector = null;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
  return collector;
}

/** Collects the young generation now (a no-op where V8 does not offer it). */
export function collectYoungGarbage(): void {
  collectorOf()?.({ type: "minor", execution: "sync" });
}

/** Bytes turned into garbage between two collections, by default: 2 MB. */
const EVERY_BYTES = 2 * 1024 * 1024;

/**
 * Counts bytes turned into garbage and collects the young generation each time `every` more
 * have gone by: `add` after each chunk of a burst, `end` once it is over.
 */
export function youngGarbageBudget(every = EVERY_BYTES) {
  let since = 0;
  return {
    add(bytes: number): void {
      since += bytes;
      if (since < every) return;
      since = 0;
      collectYoungGarbage();
    },
    end(): void {
      if (since === 0) return;
      since = 0;
      collectYoungGarbage();
    },
  };
}
