import { createReadStream } from "node:fs";
import type { RequestHandler, Response } from "express";
import { CONTENT_TYPE_OF } from "../media/image-type.js";
import type { MediaFile } from "../media/media-files.js";
import type { MediaStore } from "../media/media-store.js";
import { notModified } from "../platform/http/conditional.js";
import type { ConsumerParams, ConsumerQuery } from "../platform/http/consumer-types.js";
import { HttpError } from "../platform/http/errors.js";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** The one range of `Range: bytes=…` within `size`; undefined to send it all; null when none fits. */
export function byteRangeOf(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | undefined {
  if (header === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (m === null) return undefined; // another unit, or several ranges: the whole file
  const [, from = "", to = ""] = m;
  if (from === "" && to === "") return undefined;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return null;
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}

function send(res: Response, file: MediaFile, range: { start: number; end: number } | undefined) {
  res.setHeader("Content-Type", CONTENT_TYPE_OF[file.type]);
  res.setHeader("Accept-Ranges", "bytes");
  const start = range?.start ?? 0;
  const end = range?.end ?? file.size - 1;
  if (range !== undefined) {
    res.status(206);
    res.setHeader("Content-Range", `bytes ${start}-${end}/${file.size}`);
  }
  res.setHeader("Content-Length", String(end - start + 1));
  if (file.size === 0) {
    res.end();
    return;
  }
  if (file.bytes !== undefined) {
    res.end(range === undefined ? file.bytes : file.bytes.subarray(start, end + 1));
    return;
  }
  const stream = createReadStream(file.path, { start, end });
  stream.once("error", () => res.destroy());
  stream.pipe(res);
}

/**
 * A library image's public URL (openapi.yaml `getMediaFile`): no key, so mounted before
 * authentication. The answer may be kept by any cache for a year: an image's bytes never change
 * under its ID and parameters. Images embed in other sites' pages, so this answer allows
 * cross-origin use (helmet's default says same-origin), and it is never taken for anything but
 * an image (`nosniff`, and a CSP of `default-src 'none'` from the app).
 */
export function mediaHandlers(media: Pick<MediaStore, "file">) {
  // Typed by the spec but for the body: an image's bytes, not JSON.
  const getMediaFile: RequestHandler<
    ConsumerParams<"getMediaFile">,
    unknown,
    undefined,
    ConsumerQuery<"getMediaFile">
  > = async (req, res) => {
    const { w, h, fit, fm, q } = req.query;
    const file = await media.file(req.params.mediaId, req.params.name, { w, h, fit, fm, q });
    res.setHeader("Cache-Control", IMMUTABLE);
    res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
    res.setHeader("X-Content-Type-Options", "nosniff");
    if (notModified(req.get("if-none-match"), res, file.etag)) return;
    const range = byteRangeOf(req.get("range"), file.size);
    if (range === null) {
      throw new HttpError(416, `Range not satisfiable: the image has ${file.size} bytes.`, {
        "Content-Range": `bytes */${file.size}`,
      });
    }
    send(res, file, range);
  };
  return { getMediaFile };
}
