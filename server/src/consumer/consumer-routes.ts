import { Router } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import type { Blog, BlogList, GetBlogParams, ListBlogsQuery } from "../api-types.js";
import { toBlog } from "../blogs/blog-view.js";
import type { BlogsStore } from "../blogs/blogs-store.js";
import { decodeCursor, encodeCursor } from "../blogs/cursor.js";
import { sendWithEtag } from "../http/conditional.js";
import { HttpError, notFound } from "../http/errors.js";
import type { KeysStore } from "../keys/keys-store.js";
import type { LastUsedRecorder } from "../keys/last-used.js";
import { authenticate } from "./authenticate.js";

export interface ConsumerDeps {
  readonly specPath: string;
  readonly validateResponses: boolean;
  readonly cacheMaxAgeSeconds: number;
  readonly keys: KeysStore;
  readonly blogs: BlogsStore;
  readonly lastUsed: LastUsedRecorder;
}

const DEFAULT_LIMIT = 20;

/**
 * The consumer API (openapi/openapi.yaml), mounted at /api/consumer:
 *   GET /blogs           listBlogs
 *   GET /blogs/:blogId   getBlog
 * Authentication runs first, then the spec's request validation, then the handler.
 */
export function consumerRouter(deps: ConsumerDeps): Router {
  const router = Router();
  const cacheControl = `private, max-age=${deps.cacheMaxAgeSeconds}`;
  const workspaceOf = (locals: { workspaceId?: string }): string => {
    if (locals.workspaceId === undefined) throw new HttpError(500, "Internal server error.");
    return locals.workspaceId;
  };

  router.use(authenticate(deps.keys, deps.lastUsed));
  router.use(
    OpenApiValidator.middleware({
      apiSpec: deps.specPath,
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses: deps.validateResponses,
      // Keys are verified by `authenticate` above, with one lookup per request.
      validateSecurity: false,
      validateApiSpec: true,
    }),
  );
  router.use((_req, res, next) => {
    // Responses depend on the key: private caches only, and say which headers matter.
    res.setHeader("Cache-Control", cacheControl);
    res.setHeader("Vary", "x-api-key, Authorization");
    next();
  });

  router.get<"/blogs", Record<string, never>, BlogList, never, ListBlogsQuery>(
    "/blogs",
    async (req, res) => {
      const limit = req.query.limit ?? DEFAULT_LIMIT;
      const after = req.query.cursor === undefined ? null : decodeCursor(req.query.cursor);
      const page = await deps.blogs.listReleased(workspaceOf(res.locals), limit, after);
      sendWithEtag(req.get("if-none-match"), res, {
        data: page.blogs.map(toBlog),
        nextCursor: page.next === null ? null : encodeCursor(page.next),
      } satisfies BlogList);
    },
  );

  router.get<"/blogs/:blogId", GetBlogParams, Blog>("/blogs/:blogId", async (req, res) => {
    const doc = await deps.blogs.getReleased(workspaceOf(res.locals), req.params.blogId);
    if (doc === null) throw notFound("Blog not found.");
    sendWithEtag(req.get("if-none-match"), res, toBlog(doc));
  });

  return router;
}
