import { useState } from "preact/hooks";
import type { Media } from "../../api.js";
import { MediaPicker } from "../media/media-picker.js";
import { absoluteUrl } from "../media/media-text.js";

interface CoverPickerProps {
  workspaceId: string;
  /** The image chosen: its absolute URL and its alt text become the cover's. */
  onChoose: (url: string, alt: string) => void;
}

/**
 * "Choose from library" beside the cover image URL: the media library in a dialog (with its own
 * Upload); the image chosen sets the cover's URL (absolute, as a cover must be) and alt text.
 */
export function CoverPicker({ workspaceId, onChoose }: CoverPickerProps) {
  const [open, setOpen] = useState(false);
  const [said, setSaid] = useState("");
  const choose = (media: Media) => {
    setOpen(false);
    onChoose(absoluteUrl(media.url), media.alt.replace(/\s+/g, " ").trim());
    setSaid(`Cover set to ${media.name}.`);
  };
  return (
    <div class="cover-picker">
      {/* "Library" on screen (the field's column is narrow), the whole action to assistive
          technology: the visible word is part of the name (WCAG 2.5.3). */}
      <button
        type="button"
        class="button small"
        aria-label="Choose from library"
        onClick={() => {
          setSaid("");
          setOpen(true);
        }}
      >
        Library
      </button>
      <p class="visually-hidden" role="status">
        {said}
      </p>
      {open && (
        <MediaPicker
          workspaceId={workspaceId}
          title="Choose a cover image"
          onChoose={choose}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
