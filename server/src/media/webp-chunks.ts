/**
 * A WebP without its metadata, its image data byte for byte as it was: the RIFF container of
 * https://developers.google.com/speed/webp/docs/riff_container walked chunk by chunk. Kept: the
 * image (`VP8 `, lossy, or `VP8L`, lossless), its alpha (`ALPH`), an animation's `ANIM` and frames
 * (`ANMF`), the extended header `VP8X` with its EXIF and XMP flags cleared and, when asked, its
 * one `ICCP` chunk, which must then hold that profile exactly, right after `VP8X` (when none is
 * asked, the ICC flag is cleared too). Dropped: `EXIF`, `XMP ` and any other chunk, and whatever
 * follows the RIFF's end. Read twice through one buffer (the chunks' headers, then the kept
 * chunks), never whole.
 */
import { open } from "node:fs/promises";

const KEPT: ReadonlySet<string> = new Set(["VP8X", "ANIM", "ANMF", "ALPH", "VP8 ", "VP8L"]);
/** VP8X flags: ICC profile; EXIF and XMP, always dropped. */
const ICC_FLAG = 0x20;
const METADATA_FLAGS = 0x08 | 0x04;
const COPY_BYTES = 256 * 1024;

interface Chunk {
  readonly fourcc: string;
  /** Its payload's length. */
  readonly size: number;
  /** Where its header starts, and where it ends with its padding byte. */
  readonly start: number;
  readonly end: number;
}

/**
 * Writes the WebP at `source` to `dest` without its metadata, but for `profile`'s `ICCP` chunk
 * when one is given; false (nothing written) when its chunks do not walk as a WebP's, or it has
 * not one `ICCP` chunk holding `profile` exactly (the caller then decodes and encodes it again,
 * which refuses what libwebp cannot read).
 */
export async function writeWebpWithoutMetadata(
  source: string,
  dest: string,
  profile?: Buffer,
): Promise<boolean> {
  const input = await open(source, "r");
  try {
    const buf = Buffer.allocUnsafe(COPY_BYTES);
    const readAt = async (at: number, length: number): Promise<Buffer> => {
      const { bytesRead } = await input.read(buf, 0, length, at);
      return buf.subarray(0, bytesRead);
    };
    const { size } = await input.stat();
    const head = await readAt(0, 12);
    if (head.length < 12 || head.toString("latin1", 0, 4) !== "RIFF") return false;
    if (head.toString("latin1", 8, 12) !== "WEBP") return false;
    const riffEnd = 8 + head.readUInt32LE(4);
    if (riffEnd > size) return false;
    const chunks: Chunk[] = [];
    for (let at = 12; at < riffEnd; ) {
      const header = await readAt(at, 8);
      if (header.length < 8) return false;
      const payload = header.readUInt32LE(4);
      const end = at + 8 + payload + (payload % 2);
      if (end > riffEnd) return false;
      chunks.push({ fourcc: header.toString("latin1", 0, 4), size: payload, start: at, end });
      at = end;
    }
    const first = chunks[0]?.fourcc;
    if (first !== "VP8 " && first !== "VP8L" && first !== "VP8X") return false;
    if (profile !== undefined) {
      // Where the container puts it: right after VP8X, before the image (a reader that shows an
      // image as it arrives takes a profile found later otherwise).
      const [chunk, ...more] = chunks.filter((c) => c.fourcc === "ICCP");
      if (chunk === undefined || more.length > 0 || chunk !== chunks[1] || first !== "VP8X") {
        return false;
      }
      if (chunk.size !== profile.length) return false;
      for (let at = 0; at < profile.length; at += COPY_BYTES) {
        const part = await readAt(chunk.start + 8 + at, Math.min(COPY_BYTES, profile.length - at));
        if (part.length === 0 || !part.equals(profile.subarray(at, at + part.length))) return false;
      }
    }
    const kept = chunks.filter(
      (c) => KEPT.has(c.fourcc) || (profile !== undefined && c.fourcc === "ICCP"),
    );
    const body = kept.reduce((n, c) => n + (c.end - c.start), 0);
    const output = await open(dest, "w");
    try {
      const riff = Buffer.from("RIFF\0\0\0\0WEBP", "latin1");
      riff.writeUInt32LE(4 + body, 4);
      await output.write(riff);
      for (const chunk of kept) {
        for (let at = chunk.start; at < chunk.end; ) {
          const part = await readAt(at, Math.min(COPY_BYTES, chunk.end - at));
          if (part.length === 0) return false;
          if (chunk.fourcc === "VP8X" && at === chunk.start && part.length > 8) {
            part[8] =
              (part[8] ?? 0) &
              ~(profile === undefined ? ICC_FLAG | METADATA_FLAGS : METADATA_FLAGS);
          }
          await output.write(part);
          at += part.length;
        }
      }
    } finally {
      await output.close();
    }
    return true;
  } finally {
    await input.close();
  }
}
