import type { ConsumerBlogDoc } from "../blogs/blog-reads.js";
import type { ListPosition } from "../blogs/cursor.js";
import type { ChangeLog } from "./change-log.js";

/** A blog of the set as a walk first reads it, without content. */
export interface WalkCandidate {
  readonly _id: string;
  /** Its place in the walk: the position a page ending with it continues after. */
  readonly position: ListPosition;
  /** Whether its feed mark is set: a write of it is still to be recorded. */
  readonly marked: boolean;
  /** Its version now (the live feed: its `revision`), which the entries recording it keep. */
  readonly version: string | undefined;
}

export interface CandidatePage {
  readonly candidates: WalkCandidate[];
  readonly next: ListPosition | null;
}

/** What a walk that leaves blogs to their entries reads of the feed's set. */
export interface WalkSource {
  /** A page of the set's blogs in walk order, without content (`FeedSet.candidates`). */
  candidates(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
  ): Promise<CandidatePage>;
  /** These blogs as the feed shows them now: in the set (a view), or not (a Date). */
  current(
    workspaceId: string,
    ids: readonly string[],
  ): Promise<Map<string, ConsumerBlogDoc | Date>>;
}

/**
 * Blogs one walk call reads the places of at most, then answers with what it kept. Reading a
 * place and checking its entries costs the embedded database about 0.15 ms a blog of ~5 KB (a
 * throwaway probe, 2026-12-04): a first `/changes` call after a mass release spends about
 * 0.08 s here besides its recording (change-recorder.ts; the target is 1 s in all). At 10,000
 * blogs all marked, that call took 0.55–0.83 s with 1,000 (three runs) and 0.52 s with 500,
 * against 0.31 s before walks left blogs out (BENCHMARKS.md, "Bulk paths after an import").
 */
export const MAX_EXAMINED = 500;
/** Blogs one read of places asks for. */
const EXAMINE_CHUNK = 500;

/**
 * The blogs of `candidates` that the sync's entries after `from` will bring (or already bring),
 * so the walk need not: those named by an entry numbered after `from` (the sync reads every
 * entry after `from` once the walk is done, and reads each blog there as it is then), and the
 * marked ones without an entry numbered at most `from` for their version now (change-recorder.ts:
 * their mark is cleared only by a recording that appended an entry for that version, or a later
 * one, first; no entry numbered at most `from` can appear once `from` was seen, so it is
 * numbered after `from`). A marked blog with such an entry is kept: the recording that made it may
 * be clearing its mark right now (another instance's), and nothing else would bring it. An entry
 * without a version counts as such an entry: it may be one (an older instance's, during an
 * upgrade).
 */
async function leftToEntries(
  log: Pick<ChangeLog, "entriesOf">,
  workspaceId: string,
  candidates: readonly WalkCandidate[],
  from: number,
): Promise<Set<string>> {
  const left = new Set<string>();
  if (candidates.length === 0) return left;
  const marked = candidates.filter((c) => c.marked && c.version !== undefined);
  // Every candidate, marked or not: a recording (another instance's, or this one's recording
  // ahead, change-recorder.ts) may append an entry and clear a mark while the walk reads.
  const entries = await log.entriesOf(
    workspaceId,
    candidates.map((c) => c._id),
  );
  const versionOf = new Map(marked.map((c) => [c._id, c.version]));
  const recorded = new Set<string>();
  for (const entry of entries) {
    if (entry.seq > from) left.add(entry.blogId);
    // An entry without a version (an author's edit's, or one older than versions) may be for
    // the version now: counted as one, so the blog is sent, as it was before walks left any out.
    else if (entry.version === undefined || entry.version === versionOf.get(entry.blogId)) {
      recorded.add(entry.blogId);
    }
  }
  for (const c of marked) if (!recorded.has(c._id)) left.add(c._id);
  return left;
}

/**
 * One page of a sync's first walk that leaves to the entries after `from` (the number the walk
 * began at) the blogs those entries bring: after many writes still to record (an import, a
 * mass release), a sync then sends each such blog once, from the entries, instead of once in the
 * walk and again after it. Reads places in chunks until `limit` blogs are kept or MAX_EXAMINED
 * were read (a page may hold fewer, even none, with `next` set); the kept ones are read whole as
 * they are now, and one that left the set meanwhile is left out (its write is recorded after
 * `from`, so its entry comes after the walk too).
 */
export async function walkLeavingEntries(
  source: WalkSource,
  log: Pick<ChangeLog, "entriesOf">,
  workspaceId: string,
  limit: number,
  after: ListPosition | null,
  from: number,
): Promise<{ blogs: ConsumerBlogDoc[]; next: ListPosition | null }> {
  const kept: WalkCandidate[] = [];
  let position = after;
  let examined = 0;
  let next: ListPosition | null = null;
  for (;;) {
    const page = await source.candidates(
      workspaceId,
      Math.min(EXAMINE_CHUNK, MAX_EXAMINED - examined),
      position,
    );
    const left = await leftToEntries(log, workspaceId, page.candidates, from);
    let full = false;
    for (const [i, candidate] of page.candidates.entries()) {
      examined += 1;
      position = candidate.position;
      if (!left.has(candidate._id)) kept.push(candidate);
      if (kept.length === limit) {
        full = true;
        next = i === page.candidates.length - 1 ? page.next : position;
        break;
      }
    }
    if (full) break;
    if (page.next === null) {
      next = null;
      break;
    }
    if (examined >= MAX_EXAMINED) {
      next = position;
      break;
    }
  }
  const now = await source.current(
    workspaceId,
    kept.map((c) => c._id),
  );
  const blogs: ConsumerBlogDoc[] = [];
  for (const candidate of kept) {
    const blog = now.get(candidate._id);
    if (blog !== undefined && !(blog instanceof Date)) blogs.push(blog);
  }
  return { blogs, next };
}
