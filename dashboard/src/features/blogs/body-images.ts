import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { type FileDrop, useFileDrop } from "../media/file-drop.js";
import { absoluteUrl, filesOf, markdownImage } from "../media/media-text.js";
import { type Uploads, useUploads } from "../media/use-uploads.js";

export interface BodyImages {
  /** On the body's text area. */
  ref: { current: HTMLTextAreaElement | null };
  onPaste: (event: ClipboardEvent) => void;
  drop: FileDrop;
  uploads: Uploads;
  /** What the last insertion did, for a polite status. */
  said: string;
}

/**
 * Images pasted (a screenshot, a copied file) or dropped into the Markdown body: each goes to the
 * media library, and `![alt](url)` goes where the cursor was (a drop too: the cursor, not the
 * point of the drop). A new image has no alt text yet, so the cursor lands between its
 * brackets for the writer to type it; an image the library had already brings its own.
 */
export function useBodyImages(
  workspaceId: string,
  value: string,
  onInput: (bodyMarkdown: string) => void,
): BodyImages {
  const ref = useRef<HTMLTextAreaElement>(null);
  const uploads = useUploads(workspaceId);
  const [said, setSaid] = useState("");
  const latest = useRef({ value, onInput });
  latest.current = { value, onInput };
  /** Where the cursor goes once the inserted text is rendered. */
  const caret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = caret.current;
    const area = ref.current;
    if (at === null || area === null) return;
    caret.current = null;
    area.focus();
    area.setSelectionRange(at, at);
  }, [value]);

  const insert = async (files: File[]) => {
    const area = ref.current;
    const asked = latest.current.value;
    const range = [area?.selectionStart ?? asked.length, area?.selectionEnd ?? asked.length];
    setSaid("");
    const done = await uploads.upload(files);
    if (done.length === 0) return;
    const text = latest.current.value;
    // Typed on while it uploaded: where the cursor is now.
    const [start = 0, end = 0] =
      text === asked
        ? range
        : [ref.current?.selectionStart ?? text.length, ref.current?.selectionEnd ?? text.length];
    const images = done.map(({ media }) => markdownImage(media.alt, absoluteUrl(media.url)));
    const inserted = images.join("\n\n");
    const first = done[0]?.media;
    caret.current = first && first.alt === "" ? start + 2 : start + inserted.length;
    latest.current.onInput(text.slice(0, start) + inserted + text.slice(end));
    setSaid(
      first && first.alt === ""
        ? `${done.length === 1 ? "Image" : `${done.length} images`} inserted: type what the image shows between the brackets.`
        : `${done.length === 1 ? "Image" : `${done.length} images`} inserted.`,
    );
  };

  return {
    ref,
    onPaste: (event) => {
      const files = filesOf(event.clipboardData, true);
      if (files.length === 0) return; // text is pasted as text
      event.preventDefault();
      void insert(files);
    },
    drop: useFileDrop((files) => void insert(files), true),
    uploads,
    said,
  };
}
