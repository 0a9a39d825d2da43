import type { Response } from "express";
import type { MediaStore } from "../media/media-store.js";
import { mediaUrlOf } from "../media/media-url.js";
import type { MediaDoc } from "../platform/db/collections.js";
import { DomainError } from "../platform/domain-error.js";
import type { AdminHandler, Media, MediaInUse } from "../platform/http/admin-types.js";
import { requestOrigin, signedInUser } from "./guards.js";

/** A library image as the admin API shows it (admin.yaml `Media`), its URL on `origin`. */
export function toMedia(doc: MediaDoc, origin: string): Media {
  return {
    id: doc._id,
    name: doc.name,
    alt: doc.alt,
    type: doc.type,
    width: doc.width,
    height: doc.height,
    bytes: doc.bytes,
    url: mediaUrlOf(origin, doc._id, doc.name),
    createdAt: doc.createdAt.toISOString(),
  };
}

const lengthOf = (header: string | undefined): number | undefined => {
  if (header === undefined || !/^[0-9]{1,15}$/.test(header)) return undefined;
  return Number(header);
};

/**
 * A workspace's media library (admin.yaml, "Media": `listMedia`, `uploadMedia`, `getMedia`,
 * `updateMedia`, `deleteMedia`); any member, by the router's guard.
 */
export function mediaHandlers(deps: { readonly media: MediaStore }) {
  const view = (doc: MediaDoc, res: Response) => toMedia(doc, requestOrigin(res));

  const listMedia: AdminHandler<"listMedia"> = async (req, res) => {
    const page = await deps.media.list(req.params.workspaceId, {
      q: req.query.q,
      limit: req.query.limit ?? 50,
      cursor: req.query.cursor,
    });
    res.json({ data: page.data.map((doc) => view(doc, res)), nextCursor: page.nextCursor });
  };

  const uploadMedia: AdminHandler<"uploadMedia"> = async (req, res) => {
    const { workspaceId } = req.params;
    // A body with an encoding would be other bytes than the image's: refused before it is read.
    const encoding = req.get("content-encoding");
    if (encoding !== undefined && encoding.toLowerCase() !== "identity") {
      res.setHeader("Connection", "close");
      throw new DomainError(
        "unsupported_type",
        "Send the image's bytes as they are, without a Content-Encoding.",
      );
    }
    try {
      const { media, created } = await deps.media.upload({
        workspaceId,
        userId: signedInUser(res),
        name: req.query.name,
        alt: req.query.alt ?? "",
        body: req,
        declaredLength: lengthOf(req.get("content-length")),
      });
      res.status(created ? 201 : 200).json(view(media, res));
    } catch (err) {
      // Past the size limit the rest of the body is not read: the connection closes after the
      // answer (media-upload.ts; other refusals read and drop what is left).
      if (err instanceof DomainError && err.code === "too_large" && !req.complete) {
        res.setHeader("Connection", "close");
      }
      throw err;
    }
  };

  const getMedia: AdminHandler<"getMedia"> = async (req, res) => {
    res.json(view(await deps.media.get(req.params.workspaceId, req.params.mediaId), res));
  };

  const updateMedia: AdminHandler<"updateMedia"> = async (req, res) => {
    const { workspaceId, mediaId } = req.params;
    res.json(view(await deps.media.setAlt(workspaceId, mediaId, req.body.alt), res));
  };

  const deleteMedia: AdminHandler<"deleteMedia"> = async (req, res) => {
    const { workspaceId, mediaId } = req.params;
    const outcome = await deps.media.remove(workspaceId, mediaId, req.query.force === true);
    if ("deleted" in outcome) {
      res.status(204).end();
      return;
    }
    const { total, blogs } = outcome.inUse;
    const inUse: MediaInUse = {
      message: `${total === 1 ? "A blog shows" : `${total} blogs show`} this image. Delete it anyway with force=true.`,
      total,
      blogs: blogs.map((blog) => ({
        id: blog._id,
        title: blog.title,
        slug: blog.slug,
        status: blog.status === "released" ? "released" : "draft",
      })),
    };
    // The operation's `409` body (the handler's type knows only its `204`).
    (res as Response<MediaInUse>).status(409).json(inUse);
  };

  return { listMedia, uploadMedia, getMedia, updateMedia, deleteMedia };
}
