import type { BlogPage, ConsumerBlogDoc } from "../blogs/blog-reads.js";
import type { ListPosition } from "../blogs/cursor.js";
import { gone, invalid } from "../platform/domain-error.js";
import type { ChangeLog } from "./change-log.js";
import type { ChangeRecorder, Recorded } from "./change-recorder.js";
import { type ChangeTokens, INVALID_TOKEN_MESSAGE, type SyncPosition } from "./change-token.js";
import { type CandidatePage, walkLeavingEntries } from "./walk-skips.js";

/** A token whose `since` is this far ahead of this instance's clock is refused (clock skew). */
const CLOCK_SKEW_MS = 5 * 60_000;

/** One change as the domain sees it; the consumer routes turn it into the spec's `Change`. */
export type FeedChange =
  | { readonly type: "upsert"; readonly blog: ConsumerBlogDoc }
  | { readonly type: "delete"; readonly id: string; readonly at: Date };

export interface FeedPage {
  readonly changes: FeedChange[];
  readonly nextToken: string;
  readonly hasMore: boolean;
}

/**
 * The set of blogs a feed keeps a mirror equal to: the released ones (`releasedSet`), or the
 * preview perspective's (preview/preview-feed.ts).
 */
export interface FeedSet {
  /** A page of the whole set, in an order a keyset walk sees each blog of once. */
  page(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
  ): Promise<BlogPage<ConsumerBlogDoc>>;
  /**
   * Each of these blogs of the workspace as the feed shows it now: in the set (its view), or
   * not (when it left it: its removal, else its last change). Blogs not found are absent.
   */
  current(
    workspaceId: string,
    ids: readonly string[],
  ): Promise<Map<string, ConsumerBlogDoc | Date>>;
  /**
   * `page`'s walk without content: each blog's place, whether its mark is set and its version.
   * A set that has it lets a walk leave to the entries after it the blogs those bring
   * (walk-skips.ts); without it, a walk sends every blog of the set.
   */
  candidates?(
    workspaceId: string,
    limit: number,
    after: ListPosition | null,
  ): Promise<CandidatePage>;
}

export interface FeedDeps {
  readonly log: ChangeLog;
  readonly recorder: ChangeRecorder;
  readonly tokens: ChangeTokens;
  readonly set: FeedSet;
  /**
   * What tokens carry as their workspace: the workspace's id, or for another feed of it (the
   * preview's) a key of its own, so that one feed's tokens are refused by the other.
   */
  readonly scope?: (workspaceId: string) => string;
  /** Tokens older than this are refused with "gone" (CHANGES_RETENTION_DAYS). */
  readonly retentionMs: number;
  readonly now: () => number;
}

/** The changes feed of a workspace (openapi.yaml, "Syncing a mirror"). */
export interface ChangesFeed {
  /** One page of changes after `token` (absent: from the start), at most `limit`. */
  page(workspaceId: string, token: string | undefined, limit: number): Promise<FeedPage>;
}

/**
 * Every call first records the workspace's marked blogs (change-recorder.ts; a bounded number of
 * them, the rest by the calls that follow), then answers from one of two places:
 * - without a token, or with a token of the first walk: the released list itself, page after
 *   page (upserts), remembering the log's last number from before the walk began; once the walk
 *   is done the sync continues from that number, so whatever changed during the walk comes next;
 * - otherwise the log's entries after the token's number, up to the number just recorded: each
 *   blog named is read as it is now, an upsert if it is released, else a delete.
 */
export function changesFeed(deps: FeedDeps): ChangesFeed {
  const expiredMessage = `This sync token has expired (changes are kept for ${Math.round(
    deps.retentionMs / 86_400_000,
  )} days): clear your copy and sync again without since.`;

  const scope = deps.scope ?? ((workspaceId: string) => workspaceId);
  const positionOf = async (workspaceId: string, token: string | undefined, now: number) => {
    if (token === undefined) return null;
    const position = await deps.tokens.decode(token, scope(workspaceId));
    if (position.since > now + CLOCK_SKEW_MS) throw invalid(INVALID_TOKEN_MESSAGE);
    if (now - position.since > deps.retentionMs) throw gone(expiredMessage);
    return position;
  };

  // A walk reads blogs as stored now, so a write whose mark is still unrecorded when the walk
  // begins (a bounded recording left it) is in the walk; its entry, numbered after `from.seq`,
  // brings it once more after the walk, harmlessly. When the log has moved since the walk began,
  // or marks were left to record, a set that can tell marks leaves such blogs to their entries
  // (walk-skips.ts): after an import or a mass release, each comes once, not twice.
  const walk = async (
    workspaceId: string,
    from: SyncPosition,
    { last, complete }: Recorded,
    limit: number,
  ): Promise<FeedPage> => {
    const walkAfter = from.walk ?? null;
    const page =
      deps.set.candidates !== undefined && (!complete || last > from.seq)
        ? await walkLeavingEntries(
            { candidates: deps.set.candidates, current: deps.set.current },
            deps.log,
            workspaceId,
            limit,
            walkAfter,
            from.seq,
          )
        : await deps.set.page(workspaceId, limit, walkAfter);
    const changes = page.blogs.map((blog): FeedChange => ({ type: "upsert", blog }));
    if (page.next !== null) {
      const nextToken = await deps.tokens.encode({ ...from, walk: page.next });
      return { changes, nextToken, hasMore: true };
    }
    const { walk: _done, ...after } = from;
    return {
      changes,
      nextToken: await deps.tokens.encode(after),
      hasMore: last > from.seq || !complete,
    };
  };

  const follow = async (
    workspaceId: string,
    from: SyncPosition,
    { last, complete }: Recorded,
    limit: number,
    now: number,
  ): Promise<FeedPage> => {
    const entries = await deps.log.read(workspaceId, from.seq, last, limit);
    const end = entries.at(-1);
    // More to come: entries past this page, or marks the recording left for the next call.
    const hasMore = (end !== undefined && entries.length === limit && end.seq < last) || !complete;
    // A blog named twice in a page comes once, where its last entry is: read as it is now.
    const latest = new Map(entries.map((entry) => [entry.blogId, entry]));
    const blogs = await deps.set.current(workspaceId, [...latest.keys()]);
    const changes = [...latest.values()].map((entry): FeedChange => {
      const blog = blogs.get(entry.blogId);
      if (blog !== undefined && !(blog instanceof Date)) return { type: "upsert", blog };
      return { type: "delete", id: entry.blogId, at: blog ?? entry.at };
    });
    // Caught up: the token moves to the number just recorded, and its age starts again now.
    const next: SyncPosition = hasMore
      ? { workspaceId: scope(workspaceId), seq: end?.seq ?? from.seq, since: from.since }
      : { workspaceId: scope(workspaceId), seq: last, since: now };
    return { changes, nextToken: await deps.tokens.encode(next), hasMore };
  };

  return {
    async page(workspaceId: string, token: string | undefined, limit: number): Promise<FeedPage> {
      const now = deps.now();
      const from = await positionOf(workspaceId, token, now);
      const recorded = await deps.recorder.record(
        workspaceId,
        from === null ? {} : { after: from.seq },
      );
      const { last } = recorded;
      if (from === null) {
        const start = { workspaceId: scope(workspaceId), seq: last, since: now };
        return walk(workspaceId, start, recorded, limit);
      }
      // A number past the log's end was never issued by this database (restored from a backup?).
      if (from.seq > last) throw invalid(INVALID_TOKEN_MESSAGE);
      if (from.walk !== undefined) return walk(workspaceId, from, recorded, limit);
      return follow(workspaceId, from, recorded, limit, now);
    },
  };
}
