import { ApiError, type Media, messageOf } from "../../api.js";

/**
 * The library's thumbnail: the public URL with a width the server makes copies at (admin.yaml,
 * getMediaFile `w`: 64…2560) and WebP, so a grid of photos loads kilobytes, not megabytes.
 */
export const thumbnailOf = (media: Pick<Media, "url">, width = 256): string =>
  `${media.url}?w=${width}&fm=webp`;

/**
 * The image's URL as a blog or another site can use it: the server gives a path when it has no
 * PUBLIC_ORIGIN, and the dashboard is served by that same server, so its origin completes it.
 * A cover image must be absolute (admin.yaml, CoverImageUrlInput), and a body's relative path
 * would point at the consumer's own site.
 */
export const absoluteUrl = (url: string, origin: string = location.origin): string =>
  new URL(url, origin).href;

/** Alt text as Markdown image text: one line, with `\`, `[` and `]` escaped. */
export const markdownAlt = (alt: string): string =>
  alt
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\[\]]/g, (c) => `\\${c}`);

/** `![alt](url)`, the way a blog's Markdown body shows an image. */
export const markdownImage = (alt: string, url: string): string =>
  `![${markdownAlt(alt)}](${url.replace(/[()\s]/g, percentEncoded)})`;

const percentEncoded = (c: string): string =>
  `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

/** "PNG · 1200 × 800 · 48 KB": what the card says of an image. */
export function factsOf(media: Pick<Media, "type" | "width" | "height" | "bytes">): string {
  return `${media.type.toUpperCase()} · ${media.width}${NBSP}×${NBSP}${media.height} · ${sizeText(media.bytes)}`;
}

/** Between a number and its unit: never a line apart. */
const NBSP = "\u00a0";

export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes}${NBSP}B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)}${NBSP}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}${NBSP}MB`;
}

/** Where an upload's file came from: a pasted screenshot has a generic name, or none. */
export function uploadNameOf(file: Pick<File, "name" | "type">): string {
  if (/\S/.test(file.name)) return file.name.slice(-200);
  const ext = /^image\/([a-z]+)/.exec(file.type)?.[1] ?? "png";
  return `pasted-image.${ext === "jpeg" ? "jpg" : ext}`;
}

/** The files a drop or a paste carries; only images when `imagesOnly` (a paste of text is text). */
export function filesOf(data: DataTransfer | null, imagesOnly: boolean): File[] {
  const files = data ? Array.from(data.files) : [];
  return imagesOnly ? files.filter((f) => f.type.startsWith("image/")) : files;
}

/** Whether a drag carries files (not text or a link dragged from the page). */
export const dragHasFiles = (data: DataTransfer | null): boolean =>
  data !== null && Array.from(data.types).includes("Files");

/**
 * Why an upload failed, in words, naming the file: the server's own message for what it
 * refuses (413 too large, 415 not an image, 422 too many pixels, 503 busy, with its wait).
 */
export function uploadProblem(name: string, err: unknown): string {
  const said = messageOf(err);
  if (!(err instanceof ApiError)) return `Could not upload ${name}: ${said}`;
  switch (err.status) {
    case 413:
    case 415:
    case 422:
      return `${name} was not uploaded. ${said}`;
    case 503: {
      const wait = err.retryAfterSeconds;
      const again = wait ? ` Try again in ${wait} ${wait === 1 ? "second" : "seconds"}.` : "";
      return `${name} was not uploaded: the server is busy. ${said}${said.includes("try again") ? "" : again}`;
    }
    default:
      return `Could not upload ${name}: ${said}`;
  }
}
