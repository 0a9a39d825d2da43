import { useState } from "preact/hooks";
import type { Media as MediaImage, MediaInUse, Workspace } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { LoadMoreButton } from "../../components/load-more.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useTitle } from "../../hooks.js";
import { AltDialog } from "./alt-dialog.js";
import { useFileDrop } from "./file-drop.js";
import { InUseDialog } from "./in-use-dialog.js";
import { MediaItem } from "./media-item.js";
import { useMediaLibrary } from "./media-list.js";
import { deleteMedia, type Uploaded } from "./media-requests.js";
import { absoluteUrl, markdownImage } from "./media-text.js";
import { MediaSearch, UploadButton } from "./media-toolbar.js";
import { uploadingText, useUploads } from "./use-uploads.js";
import "./media.css";

/** The screen's one open dialog: alt text (after uploads: the rest queued), or a deletion. */
type MediaDialog =
  | { kind: "alt"; media: MediaImage }
  | { kind: "delete"; media: MediaImage }
  | { kind: "inUse"; media: MediaImage; users: MediaInUse };

/**
 * The workspace's media library (admin.yaml, tag Media): its images newest first, searched by
 * name and alt text, a page at a time; uploads by the button or by dropping files anywhere on
 * the screen, each then asked for its alt text; Copy Markdown, Edit alt text, and Delete.
 */
export function Media({ workspace }: { workspace: Workspace }) {
  useTitle(`Media · ${workspace.name}`);
  const workspaceId = workspace.id;
  const library = useMediaLibrary(workspaceId);
  const uploads = useUploads(workspaceId);
  const [dialog, setDialog] = useState<MediaDialog | null>(null);
  /** Uploaded images still to be asked for their alt text, after the one in the dialog. */
  const [queue, setQueue] = useState<{ all: Uploaded[]; at: number } | null>(null);
  const [notice, setNotice] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const upload = async (files: File[]) => {
    setNotice("");
    setProblem(null);
    const done = await uploads.upload(files);
    for (const { media } of done) library.put(media); // the last one uploaded first
    if (done.length > 0) setQueue({ all: done, at: 0 });
  };
  const drop = useFileDrop((files) => void upload(files));
  const asking = queue ? queue.all[queue.at] : undefined;
  /** The alt dialog of an upload closed (saved or skipped): the next one, or the notice. */
  const nextAlt = () => {
    if (!queue) return;
    if (queue.at + 1 < queue.all.length) return setQueue({ ...queue, at: queue.at + 1 });
    const count = queue.all.length;
    setQueue(null);
    setNotice(count === 1 ? "Image uploaded." : `${count} images uploaded.`);
  };
  const copy = async (m: MediaImage) => {
    setNotice("");
    setProblem(null);
    try {
      await navigator.clipboard.writeText(markdownImage(m.alt, absoluteUrl(m.url)));
      setNotice(`Markdown of ${m.name} copied.`);
    } catch {
      setProblem("Could not copy: the browser refused the clipboard.");
    }
  };
  /** Deletes `m`; unless `force`, an image blogs show is not: the dialog then names them. */
  const remove = async (m: MediaImage, force: boolean) => {
    const users = await deleteMedia(workspaceId, m.id, force);
    if (users !== null) return setDialog({ kind: "inUse", media: m, users });
    setDialog(null);
    library.drop(m.id);
    setNotice(`${m.name} deleted.`);
  };
  const open = (next: MediaDialog) => {
    setNotice("");
    setDialog(next);
  };

  const { images } = library;
  return (
    <div class={drop.dropping ? "media-screen dropping" : "media-screen"} {...drop.handlers}>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>Media</h1>
          <p class="lead">
            The images of <strong>{workspace.name}</strong>, for covers and blog bodies. Drop image
            files anywhere here, or upload them; each has a public address that never changes.
          </p>
        </div>
        <UploadButton busy={uploads.uploading > 0} onFiles={(files) => void upload(files)} />
      </div>
      <p class="drop-hint" aria-hidden="true">
        Drop images to upload them
      </p>
      <div role="status">
        {uploads.uploading > 0 && <p class="notice info">{uploadingText(uploads.uploading)}</p>}
        {notice && <p class="notice success">{notice}</p>}
      </div>
      {uploads.problems.map((p) => (
        <ErrorMessage key={p} message={p} />
      ))}
      {problem && <ErrorMessage message={problem} />}
      <MediaSearch typed={library.typed} onType={library.onType} />
      {library.error && (
        <ErrorMessage
          message={images ? `Could not load more: ${library.error}` : library.error}
          onRetry={library.retry}
        />
      )}
      {images === null && !library.error && <Loading label="Loading images…" />}
      {images?.length === 0 && (
        <section class="empty" aria-labelledby="media-empty-title">
          <h2 id="media-empty-title">{library.q ? "No image matches" : "No images yet"}</h2>
          <p>
            {library.q
              ? `No image's name or alt text has words starting with “${library.q}”.`
              : "Upload photos and illustrations once, then use them as covers and in blog bodies: each is resized for every screen that shows it."}
          </p>
        </section>
      )}
      {images && images.length > 0 && (
        <ul class="media-grid" aria-label={`Images of ${workspace.name}`}>
          {images.map((m) => (
            <MediaItem
              key={m.id}
              media={m}
              onCopy={() => void copy(m)}
              onEditAlt={() => open({ kind: "alt", media: m })}
              onDelete={() => open({ kind: "delete", media: m })}
            />
          ))}
        </ul>
      )}
      {images && library.more && (
        <LoadMoreButton loading={library.loading} onLoad={library.loadMore} />
      )}
      <p class="visually-hidden" role="status">
        {library.said}
      </p>
      {asking && queue && (
        <AltDialog
          key={asking.media.id}
          workspaceId={workspaceId}
          media={asking.media}
          existing={!asking.created}
          position={queue.all.length > 1 ? `Image ${queue.at + 1} of ${queue.all.length}` : null}
          closeLabel="Skip"
          onSaved={(m) => {
            library.put(m);
            nextAlt();
          }}
          onClose={nextAlt}
        />
      )}
      {dialog?.kind === "alt" && (
        <AltDialog
          workspaceId={workspaceId}
          media={dialog.media}
          closeLabel="Cancel"
          onSaved={(m) => {
            setDialog(null);
            library.put(m);
            setNotice(`Alt text of ${m.name} saved.`);
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === "delete" && (
        <ConfirmDialog
          title={`Delete ${dialog.media.name}?`}
          confirmLabel="Delete image"
          onConfirm={() => remove(dialog.media, false)}
          onClose={() => setDialog(null)}
        >
          <p>
            Its address and every resized copy stop working at once: blogs and pages that show it
            will show a broken image. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
      {dialog?.kind === "inUse" && (
        <InUseDialog
          workspaceId={workspaceId}
          media={dialog.media}
          users={dialog.users}
          onConfirm={() => remove(dialog.media, true)}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
