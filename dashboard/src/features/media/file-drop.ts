import { useRef, useState } from "preact/hooks";
import { dragHasFiles, filesOf } from "./media-text.js";

export interface FileDrop {
  /** Files are being dragged over the area: it shows it takes them. */
  dropping: boolean;
  /** For the element files may be dropped on. */
  handlers: {
    onDragEnter: (event: DragEvent) => void;
    onDragOver: (event: DragEvent) => void;
    onDragLeave: (event: DragEvent) => void;
    onDrop: (event: DragEvent) => void;
  };
}

/**
 * Files dropped on an element (the Media screen, the body's text area) go to `onFiles` instead
 * of the browser opening them; a drag of text or of a link is left to the browser. With
 * `imagesOnly`, only its images are taken (a PDF dropped on the body does nothing).
 */
export function useFileDrop(
  onFiles: (files: File[], event: DragEvent) => void,
  imagesOnly = false,
): FileDrop {
  const [dropping, setDropping] = useState(false);
  /** dragenter and dragleave fire for every child crossed: counted, so the hint does not flicker. */
  const depth = useRef(0);
  const accept = (event: DragEvent): boolean => {
    if (!dragHasFiles(event.dataTransfer)) return false;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
    return true;
  };
  return {
    dropping,
    handlers: {
      onDragEnter: (event) => {
        if (!accept(event)) return;
        depth.current++;
        setDropping(true);
      },
      onDragOver: (event) => {
        accept(event);
      },
      onDragLeave: () => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDropping(false);
      },
      onDrop: (event) => {
        depth.current = 0;
        setDropping(false);
        if (!dragHasFiles(event.dataTransfer)) return;
        // Never the browser's own handling of a dropped file: it would open it in the tab.
        event.preventDefault();
        const files = filesOf(event.dataTransfer, imagesOnly);
        if (files.length > 0) onFiles(files, event);
      },
    },
  };
}
