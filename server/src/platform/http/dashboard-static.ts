import { existsSync } from "node:fs";
import path from "node:path";
import express, { Router } from "express";
import { HttpError } from "./errors.js";

// Images from http: and https: URLs, as the sanitiser keeps them in a blog's body (openapi.yaml,
// "Putting blogs on a page"): the editor's preview shows what consumers will get. A dashboard
// served over https has the browser upgrade or block a plain-http image, as for any page.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: http: data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'";

/** The built dashboard (dashboard/dist) at /dashboard; unknown paths under it get the app. */
export function dashboardRouter(distDir: string): Router {
  const router = Router();
  const index = path.join(distDir, "index.html");
  router.use("/dashboard", (_req, res, next) => {
    res.setHeader("Content-Security-Policy", CSP);
    res.setHeader("X-Frame-Options", "DENY");
    next();
  });
  router.use(
    "/dashboard",
    express.static(distDir, { index: false, maxAge: "1h", immutable: false }),
  );
  router.get(["/dashboard", "/dashboard/{*rest}"], (_req, res) => {
    if (!existsSync(index)) {
      throw new HttpError(503, "The dashboard is not built yet: run `npm run build`.");
    }
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(index);
  });
  return router;
}
