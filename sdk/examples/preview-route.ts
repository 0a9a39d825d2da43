/**
 * A site's preview route: what the workspace's preview URL points at. An editor's "Preview on
 * site" opens it with a `token`; this server exchanges the token with the site's ordinary live
 * key and renders the blog as edited — a draft, or a released blog's pending changes — with the
 * site's usual template. Run it:
 *
 *   PRESSROOM_API_KEY=cp_live_… PRESSROOM_BASE_URL=https://pressroom.example.com PORT=4321 \
 *     npx tsx preview-route.ts
 *
 * and set the preview URL (dashboard → API keys → Preview on your site) to
 *
 *   http://localhost:4321/api/preview?slug={slug}&token={token}
 *
 * - the token is a credential for unpublished text, valid for an hour: the page is never cached
 *   (`no-store`), never indexed, and sends no `Referer` (its URL holds the token);
 * - an expired, edited or foreign token is a 400 or 410 from Pressroom: say so, and let the
 *   editor open the preview again; anything else (the API down) is a 5xx after the SDK's
 *   retries;
 * - a later save in the editor shows on a reload: each exchange returns the blog as it is now.
 */

import { type Blog, createClient, PressroomError } from "@pressroom/sdk";
import express from "express";

const pressroom = createClient({
  apiKey: process.env.PRESSROOM_API_KEY ?? "",
  baseUrl: process.env.PRESSROOM_BASE_URL ?? "http://localhost:3000",
});

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Your site's own template; `bodyHtml` is sanitised by Pressroom, everything else is text. */
const render = (blog: Blog): string =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(blog.title)}</title>` +
  `<p class="preview-banner">Preview: not published</p>` +
  `<article><h1>${escapeHtml(blog.title)}</h1>${blog.bodyHtml}</article></html>`;

const app = express();
app.get("/api/preview", async (req, res) => {
  res.set({
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex",
  });
  const token = typeof req.query.token === "string" ? req.query.token : "";
  try {
    res.type("html").send(render(await pressroom.previewLinks.exchange(token)));
  } catch (error) {
    if (error instanceof PressroomError && (error.status === 400 || error.status === 410)) {
      res
        .status(error.status)
        .type("text")
        .send(
          "This preview link is not valid or has expired: open the preview again from the editor.",
        );
      return;
    }
    throw error;
  }
});
const server = app.listen(Number(process.env.PORT ?? 4321), () => {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : "?";
  console.log(`Preview route on http://localhost:${port}/api/preview`);
});
