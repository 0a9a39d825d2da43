/**
 * The image types the library takes, told by their first bytes (admin.yaml `uploadMedia`):
 * never by a name or a `Content-Type`, which the sender chooses. Decoding the whole image
 * (image-processing.ts) then proves the rest, so a file that only starts like an image fails
 * there.
 */
export type ImageType = "jpeg" | "png" | "webp" | "avif" | "gif";

/** How many first bytes `imageTypeOf` needs. */
export const SNIFF_BYTES = 32;

const ascii = (bytes: Uint8Array, at: number, text: string): boolean =>
  [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** `avif` and `avis` brands (ISO BMFF `ftyp`, major or compatible), never HEIC's. */
function isAvif(head: Uint8Array): boolean {
  if (!ascii(head, 4, "ftyp")) return false;
  const boxSize =
    ((head[0] ?? 0) << 24) | ((head[1] ?? 0) << 16) | ((head[2] ?? 0) << 8) | (head[3] ?? 0);
  const end = Math.min(boxSize, head.length);
  for (let at = 8; at + 4 <= end; at += 4) {
    if (at === 12) continue; // the minor version
    if (ascii(head, at, "avif") || ascii(head, at, "avis")) return true;
  }
  return false;
}

/** The type the bytes start as, or undefined for anything else (SVG, HTML, PDF, HEIC, …). */
export function imageTypeOf(head: Uint8Array): ImageType | undefined {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  if (
    head[0] === 0x89 &&
    ascii(head, 1, "PNG") &&
    head[4] === 0x0d &&
    head[5] === 0x0a &&
    head[6] === 0x1a &&
    head[7] === 0x0a
  ) {
    return "png";
  }
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WEBP")) return "webp";
  if (ascii(head, 0, "GIF87a") || ascii(head, 0, "GIF89a")) return "gif";
  if (isAvif(head)) return "avif";
  return undefined;
}

/** The `Content-Type` of each type. */
export const CONTENT_TYPE_OF: Readonly<Record<ImageType, string>> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  gif: "image/gif",
};

/** The file extension each type's names end with. */
export const EXTENSION_OF: Readonly<Record<ImageType, string>> = {
  jpeg: "jpg",
  png: "png",
  webp: "webp",
  avif: "avif",
  gif: "gif",
};
