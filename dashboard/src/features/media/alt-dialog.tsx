import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import type { Media } from "../../api.js";
import { Field } from "../../components/field.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { saveAlt } from "./media-requests.js";
import { Thumbnail } from "./thumbnail.js";

interface AltDialogProps {
  workspaceId: string;
  media: Media;
  /** "Alt text for 2 of 3": after a drop of several images; null for one. */
  position?: string | null;
  /** The image was in the library already (an upload answered 200). */
  existing?: boolean;
  /** "Skip" after an upload (the image stays, without alt text), "Cancel" for an edit. */
  closeLabel: string;
  onSaved: (media: Media) => void;
  onClose: () => void;
}

/**
 * Asks what an image shows (admin.yaml, updateMedia): right after its upload, and from its card
 * later. Saved as typed; empty is allowed (an image that is only decoration).
 */
export function AltDialog(props: AltDialogProps) {
  const { workspaceId, media, position, existing, closeLabel, onSaved, onClose } = props;
  const [alt, setAlt] = useState(media.alt);
  const { busy, error, submit } = useSubmit();
  const save = submit(async () => {
    onSaved(alt === media.alt ? media : await saveAlt(workspaceId, media.id, alt));
  });
  return (
    <Modal
      title={`Alt text for ${media.name}`}
      onClose={onClose}
      description={
        <>
          {position && <p>{position}</p>}
          {existing && <p>This image was in the library already: nothing new was stored.</p>}
          <p>
            Say what the image shows, for people who cannot see it. Sites and blogs use it wherever
            the image appears.
          </p>
        </>
      }
    >
      <form
        class="stack"
        noValidate
        // Inside the editor's own form (the cover picker): its submit would save the blog.
        onSubmit={(event) => {
          event.stopPropagation();
          save(event);
        }}
      >
        <div class="alt-preview">
          <Thumbnail media={media} alt="" />
        </div>
        <Field label="Alt text" hint="Empty only for an image that is decoration.">
          {(p) => (
            <textarea
              {...p}
              value={alt}
              onInput={(event) => setAlt(event.currentTarget.value)}
              maxLength={adminLimits.updateMedia.alt.maxLength}
              rows={3}
              autofocus
            />
          )}
        </Field>
        {error && <ErrorMessage message={error} focus />}
        <div class="modal-actions">
          <button type="button" class="button" onClick={onClose}>
            {closeLabel}
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? "Saving…" : "Save alt text"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
