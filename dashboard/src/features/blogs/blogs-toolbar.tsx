import { adminQueryLimits } from "../../../../openapi/generated/admin-limits.js";
import type { BlogCounts, BlogSort, BlogStatus } from "../../api.js";

const FILTERS: { value: BlogStatus | null; label: string; count: keyof BlogCounts }[] = [
  { value: null, label: "All", count: "all" },
  { value: "draft", label: "Drafts", count: "draft" },
  { value: "released", label: "Released", count: "released" },
];
const SORTS: { value: BlogSort; label: string }[] = [
  { value: "newest", label: "Newest" },
  { value: "oldest", label: "Oldest" },
  { value: "updated", label: "Recently edited" },
  { value: "title", label: "Title A–Z" },
];

/** The search box's id: a tag chip (blogs-rows.tsx) puts the focus there. */
export const BLOG_SEARCH_ID = "blog-search";

/** A change of the list's filter, search or sort (the rest stays). */
export interface ListChange {
  status?: BlogStatus | null;
  q?: string;
  sort?: BlogSort;
}

interface ToolbarProps {
  status: BlogStatus | null;
  /** The counts for the current search; null while unknown. */
  counts: BlogCounts | null;
  countsLoading: boolean;
  /** What the search box holds (the URL's `q` follows it after a pause). */
  typed: string;
  onType: (text: string) => void;
  sort: BlogSort;
  go: (change: ListChange) => void;
}

/** The blog list's status filters with their counts, its search box and its sort. */
export function BlogsToolbar({
  status,
  counts,
  countsLoading,
  typed,
  onType,
  sort,
  go,
}: ToolbarProps) {
  return (
    <div class="blogs-toolbar">
      <fieldset class="segmented" aria-busy={countsLoading ? "true" : "false"}>
        <legend class="visually-hidden">Show</legend>
        {FILTERS.map((f) => (
          <label key={f.label}>
            <input
              type="radio"
              name="status"
              checked={status === f.value}
              // "All, 12": the label's text runs "All12" together for a screen reader.
              aria-label={counts ? `${f.label}, ${counts[f.count]}` : f.label}
              onChange={() => go({ status: f.value })}
            />
            <span>
              <span class="filter-label">{f.label}</span>
              {counts && <span class="count">{counts[f.count]}</span>}
            </span>
          </label>
        ))}
      </fieldset>
      <div class="blogs-search">
        <label class="visually-hidden" for={BLOG_SEARCH_ID}>
          Search blogs
        </label>
        <input
          id={BLOG_SEARCH_ID}
          type="search"
          placeholder="Search title, slug or tag"
          // What the API takes: a longer search would only be refused, "Try again" and all.
          maxLength={adminQueryLimits.listAdminBlogs.q.maxLength}
          value={typed}
          onInput={(e) => onType(e.currentTarget.value)}
        />
      </div>
      <div class="blogs-sort">
        <label for="blog-sort">Sort</label>
        <select
          id="blog-sort"
          value={sort}
          onChange={(e) => go({ sort: e.currentTarget.value as BlogSort })}
        >
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
