import type { Transport } from "../transport.js";
import type { Blog, CallOptions } from "../types.js";

/**
 * Preview links (the API's "Preview"): an editor's **Preview on site** opens your site's
 * preview route with a `token`; your server exchanges it here, with its ordinary live key.
 */
export interface PreviewLinks {
  /**
   * The blog a preview link's `token` shows, as it is being edited now (a draft, or a released
   * blog's pending changes): the same `Blog` type as `blogs.get`. Never cached, by the SDK or
   * by you. Throws `BadRequestError` (400) for a token that is not one of this key's workspace,
   * and a `PressroomError` with `status` 410 once it has expired (one hour) or its blog was
   * removed: ask the editor to open the preview again. Retries apply as to every call.
   */
  exchange(token: string, options?: Omit<CallOptions, "cache">): Promise<Blog>;
}

export function previewLinksApi({ api, run }: Transport, preview: boolean): PreviewLinks {
  return {
    async exchange(token, options = {}) {
      if (preview) {
        throw new TypeError(
          "previewLinks.exchange needs a live key (cp_live_…): a preview link is exchanged by your site's server with its ordinary key.",
        );
      }
      if (typeof token !== "string" || token === "") {
        throw new TypeError("previewLinks.exchange needs the token of the preview URL.");
      }
      const { data } = await run({ ...options, cache: false }, (init) =>
        api.POST("/preview-tokens/exchange", { body: { token }, ...init }),
      );
      return data;
    },
  };
}
