import { existsSync } from "node:fs";
import { Router } from "express";
import { HttpError } from "./errors.js";

/**
 * The consumer API's reference: Redoc HTML built by `npm run build:docs` with its scripts
 * inlined (renders with no network), and the spec itself.
 */
export function docsRouter(specPath: string, docsHtmlPath: string): Router {
  const router = Router();
  router.get("/openapi.yaml", (_req, res) => {
    res.type("application/yaml").sendFile(specPath);
  });
  router.get("/docs", (_req, res) => {
    if (!existsSync(docsHtmlPath)) {
      throw new HttpError(503, "The docs are not built yet: run `npm run build`.");
    }
    res.setHeader(
      "Content-Security-Policy",
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    res.sendFile(docsHtmlPath);
  });
  return router;
}
