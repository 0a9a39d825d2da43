import { useCallback, useEffect, useState } from "preact/hooks";
import {
  type AdminBlog,
  api,
  type BlogSort,
  type BlogStatus,
  call,
  type Workspace,
} from "../../api.js";
import { LoadMoreButton } from "../../components/load-more.js";
import { ErrorMessage } from "../../components/status.js";
import { useTitle } from "../../hooks.js";
import { hrefOf, navigate, onLinkClick } from "../../router.js";
import { useLoad } from "../../use-load.js";
import { searchable, useBlogCounts } from "./blogs-counts.js";
import { BlogsEmpty } from "./blogs-empty.js";
import { BlogRows, SkeletonRows } from "./blogs-rows.js";
import { BlogsToolbar, type ListChange } from "./blogs-toolbar.js";
import { useMoreFocus } from "./more-focus.js";
import "./blogs.css";

const PAGE_SIZE = 20;
/** Typing waits this long for the next key before the list is searched. */
const SEARCH_DELAY_MS = 250;

/** The blogs shown, and the cursor of the page after them. */
interface Listed {
  blogs: AdminBlog[];
  next: string | null;
}

interface BlogsProps {
  workspace: Workspace;
  status: BlogStatus | null;
  /** The search as in the URL (trimmed); "" for none. */
  q: string;
  sort: BlogSort;
}

/**
 * The blogs of a workspace: filtered by state (with counts), searched on the server by title,
 * slug and tag words, sorted, one page at a time ("Load more" follows `nextCursor`). Filter,
 * search and sort live in the URL, so a list can be reloaded or shared as it is.
 */
export function Blogs({ workspace, status, q: asked, sort }: BlogsProps) {
  const q = searchable(asked);
  useTitle(`Blogs · ${workspace.name}`);
  const [typed, setTyped] = useState(q);
  const ws = workspace.id;

  const go = useCallback(
    (change: ListChange) =>
      navigate(hrefOf({ name: "blogs", ws, status, q, sort, ...change }), { replace: true }),
    [ws, status, q, sort],
  );

  // The URL changed under the box (back/forward, "Clear search"): show what it says.
  useEffect(() => setTyped((shown) => (shown.trim() === q ? shown : q)), [q]);
  useEffect(() => {
    const wanted = typed.trim();
    if (wanted === q) return;
    const timer = setTimeout(() => go({ q: wanted }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, q, go]);

  /** Bumped by "Try again": the counts are fetched again with the list. */
  const [countsRound, setCountsRound] = useState(0);
  const counts = useBlogCounts(ws, q, countsRound);

  /** A page of the list after `cursor` (null: the first), added to the blogs shown `before`. */
  const page = async (cursor: string | null, before: AdminBlog[]): Promise<Listed> => {
    const answer = await call(
      api.GET("/workspaces/{workspaceId}/blogs", {
        params: {
          path: { workspaceId: ws },
          query: {
            limit: PAGE_SIZE,
            sort,
            ...(q === "" ? {} : { q }),
            ...(status ? { status } : {}),
            ...(cursor ? { cursor } : {}),
          },
        },
      }),
    );
    return { blogs: [...before, ...answer.data], next: answer.nextCursor };
  };
  // A newer request (another filter, search or sort) wins, and the list of one is never shown
  // as the answer of another while the new one loads.
  const list = useLoad(() => page(null, []), [ws, status, q, sort], { clearError: "request" });
  const shown = list.data?.blogs ?? null;
  const next = list.data?.next ?? null;
  const { loading } = list;
  const error = list.error?.message ?? null;
  const more = useMoreFocus(shown, loading);
  const loadMore = (cursor: string) => {
    more.willLoad(shown?.length ?? 0);
    return list.run(() => page(cursor, shown ?? []));
  };

  const firstLoad = shown === null && (loading || error === null);
  return (
    <>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>Blogs</h1>
          <p class="lead">Released blogs are what the consumer API serves. Drafts stay here.</p>
        </div>
        <a
          class="button primary"
          href={hrefOf({ name: "blog", ws, blogId: null })}
          onClick={onLinkClick}
        >
          New blog
        </a>
      </div>
      <BlogsToolbar
        status={status}
        counts={counts.counts}
        countsLoading={counts.loading}
        typed={typed}
        onType={setTyped}
        sort={sort}
        go={go}
      />
      {error && (
        <ErrorMessage
          message={error}
          onRetry={() => {
            setCountsRound((n) => n + 1);
            void (shown && next ? loadMore(next) : list.reload());
          }}
        />
      )}
      <div aria-busy={firstLoad || loading ? "true" : "false"} class="blogs-results">
        {firstLoad && (
          <>
            <p class="visually-hidden" role="status">
              Loading blogs…
            </p>
            <ul class="blog-list" aria-hidden="true">
              <SkeletonRows />
            </ul>
          </>
        )}
        {shown?.length === 0 && (
          <BlogsEmpty
            ws={ws}
            status={status}
            q={q}
            onClearSearch={() => {
              setTyped("");
              go({ q: "" });
            }}
            onShowAll={() => go({ status: null })}
          />
        )}
        {shown && shown.length > 0 && (
          <ul class="blog-list" aria-label="Blogs" ref={more.listRef}>
            <BlogRows
              ws={ws}
              blogs={shown}
              tagHref={(tag) => hrefOf({ name: "blogs", ws, status, q: tag, sort })}
            />
          </ul>
        )}
      </div>
      {shown && next && (
        <LoadMoreButton
          loading={loading}
          onLoad={() => loadMore(next)}
          buttonRef={more.buttonRef}
        />
      )}
      <p class="visually-hidden" role="status">
        {more.said}
      </p>
    </>
  );
}
