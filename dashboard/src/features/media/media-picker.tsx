import { useState } from "preact/hooks";
import type { Media } from "../../api.js";
import { LoadMoreButton } from "../../components/load-more.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { AltDialog } from "./alt-dialog.js";
import { useMediaLibrary } from "./media-list.js";
import type { Uploaded } from "./media-requests.js";
import { factsOf } from "./media-text.js";
import { MediaSearch, UploadButton } from "./media-toolbar.js";
import { Thumbnail } from "./thumbnail.js";
import { uploadingText, useUploads } from "./use-uploads.js";
import "./media.css";

interface MediaPickerProps {
  workspaceId: string;
  /** "Choose a cover image". */
  title: string;
  onChoose: (media: Media) => void;
  onClose: () => void;
}

/**
 * The library in a dialog, to choose one image (the editor's cover): searched, a page at a time,
 * each image a button. "Upload image" adds one, asks its alt text, and chooses it.
 */
export function MediaPicker({ workspaceId, title, onChoose, onClose }: MediaPickerProps) {
  const library = useMediaLibrary(workspaceId);
  const uploads = useUploads(workspaceId);
  const [uploaded, setUploaded] = useState<Uploaded | null>(null);
  const upload = async (files: File[]) => {
    const [done] = await uploads.upload(files.slice(0, 1));
    if (done) setUploaded(done);
  };
  const { images } = library;
  return (
    <Modal
      title={title}
      onClose={onClose}
      wide
      description="Images of this workspace's media library, newest first."
    >
      <MediaSearch typed={library.typed} onType={library.onType} />
      <div role="status">
        {uploads.uploading > 0 && <p class="notice info">{uploadingText(uploads.uploading)}</p>}
      </div>
      {uploads.problems.map((p) => (
        <ErrorMessage key={p} message={p} />
      ))}
      {library.error && <ErrorMessage message={library.error} onRetry={library.retry} />}
      {images === null && !library.error && <Loading label="Loading images…" />}
      {images?.length === 0 && (
        <p class="muted">
          {library.q ? `No image matches “${library.q}”.` : "The library has no images yet."}
        </p>
      )}
      {images && images.length > 0 && (
        <ul class="pick-grid" aria-label="Images">
          {images.map((m) => (
            <li key={m.id}>
              <button type="button" class="pick-button" onClick={() => onChoose(m)}>
                <span class="pick-thumb">
                  <Thumbnail media={m} alt="" />
                </span>
                <span class="pick-name">
                  <span class="visually-hidden">Choose </span>
                  {m.name}
                </span>
                <span class="muted">{m.alt === "" ? factsOf(m) : m.alt}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="picker-actions">
        {images && library.more && (
          <LoadMoreButton loading={library.loading} onLoad={library.loadMore} block={false} />
        )}
        <UploadButton
          busy={uploads.uploading > 0}
          single
          label="Upload image"
          onFiles={(files) => void upload(files)}
        />
      </div>
      <div class="modal-actions">
        <button type="button" class="button" onClick={onClose}>
          Cancel
        </button>
      </div>
      <p class="visually-hidden" role="status">
        {library.said}
      </p>
      {uploaded && (
        <AltDialog
          workspaceId={workspaceId}
          media={uploaded.media}
          existing={!uploaded.created}
          closeLabel="Skip"
          onSaved={onChoose}
          onClose={() => onChoose(uploaded.media)}
        />
      )}
    </Modal>
  );
}
