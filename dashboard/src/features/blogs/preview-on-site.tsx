import { useState } from "preact/hooks";
import { api, call } from "../../api.js";
import { ErrorMessage } from "../../components/status.js";

interface PreviewOnSiteProps {
  workspaceId: string;
  blogId: string;
  /** Unsaved changes: the site shows the last saved version, and the button says so. */
  dirty: boolean;
}

/**
 * "Preview on site" (admin.yaml `createPreviewLink`): a new tab on the team's own site, at the
 * workspace's preview URL with a one-hour token for this blog. The tab is opened in the click
 * itself, so no pop-up blocker stops it, and sent to the link once the server made it; a
 * browser that blocked it anyway gets the link to open by hand. The link is never shown
 * otherwise nor kept: it is a credential for unpublished text.
 */
export function PreviewOnSite({ workspaceId, blogId, dirty }: PreviewOnSiteProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [blocked, setBlocked] = useState<string | null>(null);
  const open = async () => {
    const tab = window.open("", "_blank");
    setBusy(true);
    setError("");
    setBlocked(null);
    try {
      const link = await call(
        api.POST("/workspaces/{workspaceId}/blogs/{blogId}/preview-link", {
          params: { path: { workspaceId, blogId } },
        }),
      );
      if (tab === null) {
        setBlocked(link.url);
      } else {
        // The site must not be able to script the dashboard's tab.
        tab.opener = null;
        tab.location.href = link.url;
      }
    } catch (err) {
      tab?.close();
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="button" onClick={() => void open()} disabled={busy}>
        {busy ? "Opening preview…" : dirty ? "Preview saved version" : "Preview on site"}
      </button>
      {blocked !== null && (
        <p class="notice">
          Your browser blocked the new tab.{" "}
          <a href={blocked} target="_blank" rel="noopener noreferrer">
            Open the preview
          </a>{" "}
          (valid for an hour).
        </p>
      )}
      {error !== "" && <ErrorMessage message={error} />}
    </>
  );
}
