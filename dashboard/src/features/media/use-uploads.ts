import { useEffect, useRef, useState } from "preact/hooks";
import { type Uploaded, uploadMedia } from "./media-requests.js";
import { uploadNameOf, uploadProblem } from "./media-text.js";

export interface Uploads {
  /** Files sent and not yet answered ("Uploading 2 images…"); 0 when idle. */
  uploading: number;
  /** One sentence per file refused or failed, naming it; cleared by the next upload. */
  problems: string[];
  /** Uploads the files one after another; resolves with those the server took, in order. */
  upload: (files: readonly File[]) => Promise<Uploaded[]>;
}

/**
 * Uploads to a workspace's library, one file at a time (the server admits a few images of a
 * workspace at once: one writer's drop of twenty photos should not take them all), each
 * failure said with the server's reason.
 */
export function useUploads(workspaceId: string): Uploads {
  const [uploading, setUploading] = useState(0);
  const [problems, setProblems] = useState<string[]>([]);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const upload = async (files: readonly File[]): Promise<Uploaded[]> => {
    const done: Uploaded[] = [];
    const failed: string[] = [];
    setProblems([]);
    setUploading(files.length);
    for (const [i, file] of files.entries()) {
      try {
        done.push(await uploadMedia(workspaceId, file));
      } catch (err) {
        failed.push(uploadProblem(uploadNameOf(file), err));
      }
      if (mounted.current) setUploading(files.length - i - 1);
    }
    if (mounted.current) setProblems(failed);
    return done;
  };
  return { uploading, problems, upload };
}

/** "Uploading 1 image…" */
export const uploadingText = (count: number): string =>
  `Uploading ${count} ${count === 1 ? "image" : "images"}…`;
