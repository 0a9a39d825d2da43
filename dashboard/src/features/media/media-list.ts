import { useEffect, useState } from "preact/hooks";
import type { Media } from "../../api.js";
import { useLoad } from "../../use-load.js";
import { listMedia } from "./media-requests.js";

/** The pause after typing before the library is searched. */
const SEARCH_DELAY_MS = 300;

interface Listed {
  images: Media[];
  next: string | null;
}

export interface MediaLibrary {
  /** What the search box holds; the search follows it after a pause. */
  typed: string;
  onType: (text: string) => void;
  /** The search asked (trimmed). */
  q: string;
  /** The images shown, newest first; null before the first answer. */
  images: Media[] | null;
  /** There is a next page ("Load more"). */
  more: boolean;
  loading: boolean;
  error: string | null;
  /** "Try again": the page that failed. */
  retry: () => void;
  loadMore: () => void;
  /** What the last page added, for a polite status. */
  said: string;
  /** An image uploaded (first, unless shown already) or changed (in its place). */
  put: (media: Media) => void;
  /** An image deleted. */
  drop: (mediaId: string) => void;
}

/**
 * The library as the Media screen and the cover picker show it: newest first, searched on the
 * server by name and alt words, a page at a time (`nextCursor`); uploads, alt text changes and
 * deletions change what is shown without asking again.
 */
export function useMediaLibrary(workspaceId: string): MediaLibrary {
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const [said, setSaid] = useState("");
  useEffect(() => {
    const wanted = typed.trim();
    if (wanted === q) return;
    const timer = setTimeout(() => setQ(wanted), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, q]);

  const page = async (cursor: string | null, before: Media[], signal: AbortSignal) => {
    const answer = await listMedia(workspaceId, q, cursor, signal);
    return { images: [...before, ...answer.data], next: answer.nextCursor } satisfies Listed;
  };
  const list = useLoad((signal) => page(null, [], signal), [workspaceId, q], {
    clearError: "request",
  });
  const images = list.data?.images ?? null;
  const next = list.data?.next ?? null;
  const loadMore = () => {
    if (list.loading || next === null) return;
    const before = images ?? [];
    setSaid("");
    void list.run(async (signal) => {
      const listed = await page(next, before, signal);
      const added = listed.images.length - before.length;
      setSaid(`${added} more ${added === 1 ? "image" : "images"}: ${listed.images.length} shown.`);
      return listed;
    });
  };

  return {
    typed,
    onType: setTyped,
    q,
    images,
    more: next !== null,
    loading: list.loading,
    error: list.error?.message ?? null,
    retry: () => (images && next ? loadMore() : void list.reload()),
    loadMore,
    said,
    put: (media) =>
      list.mutate((l) => ({
        ...l,
        images: l.images.some((m) => m.id === media.id)
          ? l.images.map((m) => (m.id === media.id ? media : m))
          : [media, ...l.images],
      })),
    drop: (mediaId) =>
      list.mutate((l) => ({ ...l, images: l.images.filter((m) => m.id !== mediaId) })),
  };
}
