import {
  ApiError,
  answered,
  api,
  call,
  type Media,
  type MediaInUse,
  type MediaList,
  send,
} from "../../api.js";
import { uploadNameOf } from "./media-text.js";

/** Images a page of the library holds. */
export const MEDIA_PAGE = 24;

/** One page of the library, newest first: searched by `q` (empty: all), after `cursor`. */
export function listMedia(
  workspaceId: string,
  q: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<MediaList> {
  return call(
    api.GET("/workspaces/{workspaceId}/media", {
      params: {
        path: { workspaceId },
        query: { limit: MEDIA_PAGE, ...(q === "" ? {} : { q }), ...(cursor ? { cursor } : {}) },
      },
      ...(signal ? { signal } : {}),
    }),
  );
}

/** An upload's answer: the image, and whether it is new (201) or was there already (200). */
export interface Uploaded {
  media: Media;
  created: boolean;
}

/**
 * Uploads a file's bytes as the request body (admin.yaml, uploadMedia: not a form), its name
 * and alt text in the query. The spec types a binary body as a string, so the file goes to
 * fetch through `bodySerializer`; the server tells the type by the bytes, not `Content-Type`.
 */
export async function uploadMedia(workspaceId: string, file: File, alt = ""): Promise<Uploaded> {
  const { data, status } = await answered(
    api.POST("/workspaces/{workspaceId}/media", {
      params: {
        path: { workspaceId },
        query: { name: uploadNameOf(file), ...(alt === "" ? {} : { alt }) },
      },
      body: "",
      bodySerializer: () => file,
      headers: {
        "Content-Type": file.type.startsWith("image/") ? file.type : "application/octet-stream",
      },
    }),
  );
  return { media: data, created: status === 201 };
}

/** Replaces an image's alt text (admin.yaml, updateMedia). */
export const saveAlt = (workspaceId: string, mediaId: string, alt: string): Promise<Media> =>
  call(
    api.PATCH("/workspaces/{workspaceId}/media/{mediaId}", {
      params: { path: { workspaceId, mediaId } },
      body: { alt },
    }),
  );

/**
 * Deletes an image and its copies (admin.yaml, deleteMedia): its URLs answer 404 from now on.
 * Unless `force`, an image that blogs show is not deleted: the answer is the blogs that do.
 */
export async function deleteMedia(
  workspaceId: string,
  mediaId: string,
  force = false,
): Promise<MediaInUse | null> {
  try {
    await send(
      api.DELETE("/workspaces/{workspaceId}/media/{mediaId}", {
        params: { path: { workspaceId, mediaId }, query: force ? { force: true } : {} },
      }),
    );
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 409 && isInUse(err.body)) return err.body;
    throw err;
  }
}

const isInUse = (body: unknown): body is MediaInUse =>
  typeof body === "object" &&
  body !== null &&
  "blogs" in body &&
  Array.isArray(body.blogs) &&
  "total" in body &&
  typeof body.total === "number";
