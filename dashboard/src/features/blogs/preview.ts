import { useEffect, useState } from "preact/hooks";
import { ApiError, api, call, messageOf } from "../../api.js";

/** How long typing must pause before the body is sent for a preview. */
export const PREVIEW_DELAY_MS = 300;
/** A busy server (503) without `Retry-After` is asked again after this long. */
const BUSY_RETRY_SECONDS = 2;

export interface BodyPreview {
  /** The server's sanitised HTML of the latest body it rendered; null before the first. */
  html: string | null;
  /** The body typed now is not rendered yet (waiting for a pause, or for the server). */
  pending: boolean;
  /** Why the body typed now has no preview, in words for the writer; null when it has one. */
  problem: string | null;
}

/** What the preview pane says when the server did not render the body. */
function problemOf(err: unknown): string {
  if (err instanceof ApiError && err.status === 422) {
    return `This body cannot be rendered, so saving it would be refused too: ${err.message}`;
  }
  if (err instanceof ApiError && err.status === 503) {
    // Busy with this workspace's renders, this person's previews (their own earlier, slow text)
    // or, rarely, everyone's: the server's message names which; it asks again by itself.
    return "The server is busy rendering; the preview will catch up in a moment.";
  }
  if (err instanceof ApiError && err.status === 0) {
    return "The preview is not available: the server could not be reached. It will update when you type again.";
  }
  return `The preview is not available: ${messageOf(err)}`;
}

/**
 * The editor's live preview, rendered by the server exactly as a save would render it (POST
 * /workspaces/{ws}/blogs/preview, admin.yaml): the HTML consumers would get. Asked
 * `PREVIEW_DELAY_MS` after typing pauses; newer typing cancels the request for older text, so
 * the latest body always wins. `saved` is a body whose HTML is known already (the blog as
 * loaded or saved): shown without asking the server.
 */
export function useBodyPreview(
  workspaceId: string,
  bodyMarkdown: string,
  saved: { bodyMarkdown: string; bodyHtml: string } | null,
): BodyPreview {
  const [preview, setPreview] = useState<BodyPreview>({
    html: null,
    pending: false,
    problem: null,
  });
  const known = saved !== null && saved.bodyMarkdown === bodyMarkdown ? saved.bodyHtml : null;

  useEffect(() => {
    if (bodyMarkdown.trim() === "") {
      setPreview({ html: null, pending: false, problem: null });
      return;
    }
    if (known !== null) {
      setPreview({ html: known, pending: false, problem: null });
      return;
    }
    setPreview((p) => ({ ...p, pending: true }));
    const stale = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const ask = async () => {
      try {
        const { bodyHtml } = await call(
          api.POST("/workspaces/{workspaceId}/blogs/preview", {
            params: { path: { workspaceId } },
            body: { bodyMarkdown },
            signal: stale.signal,
          }),
        );
        if (!stale.signal.aborted) setPreview({ html: bodyHtml, pending: false, problem: null });
      } catch (err) {
        if (stale.signal.aborted) return; // newer text took over
        const busy = err instanceof ApiError && err.status === 503;
        setPreview((p) => ({ ...p, pending: busy, problem: problemOf(err) }));
        if (busy) {
          const seconds = (err as ApiError).retryAfterSeconds ?? BUSY_RETRY_SECONDS;
          timer = setTimeout(ask, seconds * 1000);
        }
      }
    };
    timer = setTimeout(ask, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      stale.abort();
    };
  }, [workspaceId, bodyMarkdown, known]);

  return preview;
}
