import { useEffect, useRef, useState } from "preact/hooks";
import type { Media } from "../../api.js";
import { thumbnailOf } from "./media-text.js";

/**
 * Thumbnails loading at once, page-wide. The server makes a resized copy the first time one is
 * asked for, one of a workspace at a time (admin.yaml, MediaBusy: 503 past a queue): a grid of new
 * uploads asked all together would get some refused. Three, so an upload still has room.
 */
const AT_ONCE = 3;
let loading = 0;
const waiting: (() => void)[] = [];

/** Runs `start` once a slot is free; returns what gives the slot (or the place in line) back. */
function takeSlot(start: () => void): () => void {
  let state: "waiting" | "running" | "done" = "waiting";
  const run = () => {
    state = "running";
    loading++;
    start();
  };
  if (loading < AT_ONCE) run();
  else waiting.push(run);
  return () => {
    if (state === "waiting") waiting.splice(waiting.indexOf(run), 1);
    if (state === "running") {
      loading--;
      waiting.shift()?.();
    }
    state = "done";
  };
}

/** A refused copy (503: busy) is asked again after this, a few times. */
const RETRY_MS = 1500;
const RETRIES = 3;

interface ThumbnailProps {
  media: Pick<Media, "url" | "width" | "height">;
  alt: string;
}

/**
 * A library image's 256 px WebP copy, `loading="lazy"`, with the image's own width and height
 * (so nothing jumps as it loads), asked for once it comes near the screen and a slot is free.
 */
export function Thumbnail({ media, alt }: ThumbnailProps) {
  const ref = useRef<HTMLImageElement>(null);
  const [src, setSrc] = useState<string | null>(null);
  const [tries, setTries] = useState(0);
  const release = useRef<(() => void) | null>(null);
  const done = () => {
    release.current?.();
    release.current = null;
  };
  useEffect(() => {
    const img = ref.current;
    if (img === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        timer = setTimeout(
          () => {
            release.current = takeSlot(() => setSrc(thumbnailOf(media)));
          },
          tries === 0 ? 0 : RETRY_MS,
        );
      },
      { rootMargin: "300px" },
    );
    observer.observe(img);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
      done();
    };
  }, [media.url, tries]);
  return (
    <img
      ref={ref}
      src={src ?? undefined}
      alt={alt}
      width={media.width}
      height={media.height}
      loading="lazy"
      onLoad={done}
      onError={() => {
        done();
        if (tries >= RETRIES) return;
        setSrc(null);
        setTries((n) => n + 1);
      }}
    />
  );
}
