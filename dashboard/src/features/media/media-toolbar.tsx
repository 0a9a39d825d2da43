import { useRef } from "preact/hooks";
import { adminQueryLimits } from "../../../../openapi/generated/admin-limits.js";

/** The library's search box: name and alt words, searched on the server after a pause. */
export function MediaSearch({ typed, onType }: { typed: string; onType: (text: string) => void }) {
  return (
    <div class="media-search">
      <label class="visually-hidden" for="media-search">
        Search images
      </label>
      <input
        id="media-search"
        type="search"
        placeholder="Search names and alt text"
        maxLength={adminQueryLimits.listMedia.q.maxLength}
        value={typed}
        onInput={(event) => onType(event.currentTarget.value)}
        // In the editor's picker this box is inside the editor's form: Enter must not save the blog.
        onKeyDown={(event) => {
          if (event.key === "Enter") event.preventDefault();
        }}
      />
    </div>
  );
}

interface UploadButtonProps {
  busy: boolean;
  onFiles: (files: File[]) => void;
  /** The button's text; default "Upload images". */
  label?: string;
  /** One file at a time (the cover picker). */
  single?: boolean;
}

/** A button that opens the file chooser (images); the files chosen go to `onFiles`. */
export function UploadButton({
  busy,
  onFiles,
  label = "Upload images",
  single = false,
}: UploadButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        class="button primary"
        aria-disabled={busy}
        onClick={() => !busy && input.current?.click()}
      >
        {busy ? "Uploading…" : label}
      </button>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
        multiple={!single}
        hidden
        tabIndex={-1}
        onChange={(event) => {
          const files = Array.from(event.currentTarget.files ?? []);
          event.currentTarget.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
