import { checkApiKey, checkBaseUrl, checkPreview } from "./arguments.js";
import { PressroomError } from "./errors.js";
import { type Authors, authorsApi } from "./resources/authors.js";
import { type Blogs, blogsApi } from "./resources/blogs.js";
import { type Changes, changesApi } from "./resources/changes.js";
import { type PreviewLinks, previewLinksApi } from "./resources/preview-links.js";
import { createTransport } from "./transport.js";
import type { ClientOptions } from "./types.js";

const inspectCustom = Symbol.for("nodejs.util.inspect.custom");

/**
 * A client of the Pressroom consumer API. Create it once and reuse it: its ETag cache is what
 * makes periodic syncs cheap. The API key is held in a closure: it is not a property, and neither
 * `JSON.stringify` nor `util.inspect` can show it.
 */
export class PressroomClient {
  /** The server address the client talks to (without `/api/consumer`). */
  readonly baseUrl: string;
  readonly blogs: Blogs;
  /** The workspace's authors, for author pages (see {@link Authors}). */
  readonly authors: Authors;
  /**
   * The changes feed: keep a copy of the released blogs up to date (see {@link Changes}); on a
   * preview client, of the preview perspective (every blog not removed, as it would be published).
   */
  readonly changes: Changes;
  /** Exchange a preview link's token for the blog it shows (live clients). */
  readonly previewLinks: PreviewLinks;
  /** True when the client reads the preview perspective (a `cp_preview_…` key). */
  readonly preview: boolean;

  constructor(options: ClientOptions) {
    if (options === null || typeof options !== "object") {
      throw new TypeError("createClient needs an options object: { apiKey, baseUrl }.");
    }
    if (isBrowser() && options.dangerouslyAllowBrowser !== true) {
      throw new PressroomError(
        "Pressroom API keys are secrets and belong on a server: createClient() refuses to run " +
          "in a browser, where every visitor could read the key. Call the API from your backend " +
          "(or a server-side rendering step) and send your pages the blogs, not the key. If this " +
          "code does run on a server with browser-like globals (jsdom, …), pass " +
          "dangerouslyAllowBrowser: true.",
        { attempts: 0 },
      );
    }
    const apiKey = checkApiKey(options.apiKey);
    this.preview = checkPreview(apiKey, options.preview);
    const { origin, apiBase } = checkBaseUrl(options.baseUrl, this.preview);
    this.baseUrl = origin;
    const transport = createTransport(apiBase, apiKey, options);
    this.blogs = blogsApi(transport);
    this.authors = authorsApi(transport);
    this.changes = changesApi(transport);
    this.previewLinks = previewLinksApi(transport, this.preview);
  }

  /** `JSON.stringify(client)`: the address (and whether it previews) only. */
  toJSON(): { baseUrl: string; preview?: true } {
    return this.preview ? { baseUrl: this.baseUrl, preview: true } : { baseUrl: this.baseUrl };
  }

  /** `util.inspect(client)` / `console.log(client)`: the address (and preview) only. */
  [inspectCustom](): string {
    const preview = this.preview ? ", preview: true" : "";
    return `PressroomClient { baseUrl: ${JSON.stringify(this.baseUrl)}${preview} }`;
  }
}

/** Creates a {@link PressroomClient}. */
export function createClient(options: ClientOptions): PressroomClient {
  return new PressroomClient(options);
}

/** Browser detection: all three globals a page has and a server normally lacks. */
function isBrowser(): boolean {
  return "window" in globalThis && "document" in globalThis && "navigator" in globalThis;
}
