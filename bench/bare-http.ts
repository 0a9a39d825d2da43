/**
 * What the two bare servers of bench/run.ts share (baseline-server.ts, floor-server.ts): the
 * consumer Blog of a stored blog, their JSON answers, with a SHA-256 ETag of the body for
 * conditional requests, and serving in a benchmark child process (child-control.ts).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { serveControl, trackServer } from "./child-control.js";

/** A stored blog's fields the consumer Blog is made of; dates as Date (driver) or ms (SQLite). */
export interface StoredBlogFields {
  _id: string;
  releasedAt: Date | number;
  updatedAt: Date | number;
  [field: string]: unknown;
}

/**
 * The consumer `Blog` (openapi.yaml) of a stored blog, every property in the spec's order
 * (server/src/blogs/blog-view.ts). The bench's blogs name no authors and their covers are not
 * library images (seed.ts), so `authors` is empty, `authorName` the stored byline and
 * `coverImage` null: what the app answers for them with no author or media query. Fields a
 * stored blog may lack read as the app reads them (blog-rules.ts `presentationOf`).
 */
export const toBlog = (d: StoredBlogFields) => ({
  id: d._id,
  slug: d.slug,
  title: d.title,
  excerpt: d.excerpt,
  bodyMarkdown: d.bodyMarkdown,
  bodyHtml: d.bodyHtml,
  tags: d.tags,
  authorName: d.authorName,
  authors: [],
  coverImageUrl: d.coverImageUrl,
  coverImageAlt: d.coverImageAlt ?? null,
  coverImage: null,
  featured: d.featured ?? false,
  metaTitle: d.metaTitle ?? null,
  metaDescription: d.metaDescription ?? null,
  canonicalUrl: d.canonicalUrl ?? null,
  socialImageUrl: d.socialImageUrl ?? null,
  readingTimeMinutes: d.readingTimeMinutes ?? 0,
  releasedAt: new Date(d.releasedAt).toISOString(),
  updatedAt: new Date(d.updatedAt).toISOString(),
});

export function send(res: http.ServerResponse, status: number, body: string, etag?: string): void {
  const headers: Record<string, string | number> = {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  };
  if (etag !== undefined) headers.etag = etag;
  res.writeHead(status, headers).end(body);
}

/** `value` as JSON; for a conditional request, with the body's ETag, or 304 when it matches. */
export function sendBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  value: unknown,
): void {
  const body = JSON.stringify(value);
  if (req.headers["if-none-match"] === undefined) {
    send(res, 200, body);
    return;
  }
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, { etag }).end();
    return;
  }
  send(res, 200, body, etag);
}

/**
 * Serves `handle` on a loopback port, answering 500 when it fails; tells the parent the URL
 * (`{ready}`) and answers its control messages.
 */
export async function serveBare(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>,
): Promise<void> {
  const fail = (res: http.ServerResponse) => send(res, 500, '{"message":"Internal server error."}');
  const server = http.createServer((req, res) => {
    try {
      Promise.resolve(handle(req, res)).catch(() => fail(res));
    } catch {
      fail(res);
    }
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  trackServer(server);
  serveControl();
  process.send?.({ ready: `http://127.0.0.1:${port}` });
}
