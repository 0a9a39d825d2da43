/**
 * Images in `pressroom --server` imports and exports (README, "Import and export"): an import's
 * images go to the library through the admin API's `uploadMedia` before its blogs are sent
 * (transfer/attach-images.ts), and an export's image files are read from their public URLs (the
 * consumer API's `getMediaFile`, no key), since the export's JSON carries only their records.
 */
import { readFile, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { mediaUrlOf } from "../media/media-url.js";
import { DomainError } from "../platform/domain-error.js";
import type { ImageLibrary } from "../transfer/attach-images.js";
import type { ExportedMedia } from "../transfer/export-workspace.js";
import { type AdminClient, answerOf } from "./remote-client.js";

/** The largest file sent (the most `MEDIA_UPLOAD_LIMIT_BYTES` may be); the server's own limit refuses less. */
const MAX_SENT = 268_435_456;

/** The library of `workspaceId` on the server, through the admin API. */
export function remoteImageLibrary(
  api: AdminClient,
  server: URL,
  workspaceId: string,
): ImageLibrary {
  return {
    async find(image) {
      // An exported image the workspace has (a restore into the workspace it came from); only its
      // ID can be asked after: the API does not look images up by their bytes' hash.
      if (image.exported === undefined) return undefined;
      const { data, response } = await api.GET("/workspaces/{workspaceId}/media/{mediaId}", {
        params: { path: { workspaceId, mediaId: image.exported.id } },
      });
      if (response.status === 404) return undefined;
      if (data === undefined) throw new Error(`${server.origin} answered ${response.status}.`);
      return data.url;
    },
    async put(image, alt) {
      const size = (await stat(image.file)).size;
      if (size > MAX_SENT) {
        throw new DomainError("too_large", `Image too large: at most ${MAX_SENT} bytes.`);
      }
      // Held whole: a retry sends the request again from a copy (remote-client.ts).
      const bytes = await readFile(image.file);
      const call = api.POST("/workspaces/{workspaceId}/media", {
        params: {
          path: { workspaceId },
          query: { name: image.name.slice(0, 200), ...(alt === "" ? {} : { alt }) },
        },
        body: "",
        bodySerializer: () => bytes,
        headers: { "Content-Type": "application/octet-stream" },
      });
      let created = false;
      const media = await answerOf(
        call.then((outcome) => {
          created = outcome.response.status === 201;
          return outcome;
        }),
        server,
      );
      return { url: media.url, created };
    },
  };
}

/** An exported image's bytes, from its public URL on `server`. */
export function publicImageOf(server: URL): (record: ExportedMedia) => Promise<Readable> {
  const base = server.href.replace(/\/+$/, "");
  return async (record) => {
    const url = mediaUrlOf(base, record.id, record.name);
    let response: Response;
    try {
      response = await fetch(url);
    } catch (err) {
      throw new Error(`Cannot reach ${server.origin}: ${(err as Error).message}.`);
    }
    if (!response.ok || response.body === null) {
      await response.body?.cancel();
      throw new DomainError(
        response.status === 404 ? "not_found" : "unavailable",
        `Image ${record.id} (${record.name}): ${server.origin} answered ${response.status}.`,
      );
    }
    return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  };
}
