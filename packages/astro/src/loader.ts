import {
  BadRequestError,
  type Blog,
  type BlogField,
  type Change,
  createClient,
  type PressroomClient,
  type SyncStore,
} from "@pressroom/sdk";
import type { LoaderContext } from "astro/loaders";
import { type BlogSchema, schemaFor } from "./schema.js";

/** Where the loader reads from: a key and a server, or a client made elsewhere. */
export type PressroomSource =
  | {
      /** A live workspace key (`cp_live_…`). Never a preview key on a public site. */
      readonly apiKey: string;
      /** The Pressroom server, e.g. `https://pressroom.example.com`. */
      readonly baseUrl: string;
      readonly client?: undefined;
    }
  | {
      /** A client of `@pressroom/sdk` (its own fetch, retries, timeouts…). */
      readonly client: PressroomClient;
      readonly apiKey?: undefined;
      readonly baseUrl?: undefined;
    };

export type PressroomLoaderOptions<F extends BlogField = BlogField> = PressroomSource & {
  /** The `Blog` properties to keep in each entry (`id` always). Default: all of them. */
  readonly fields?: readonly F[];
  /** Only blogs carrying this tag, in the API's normal form (`release-notes`). Default: all. */
  readonly tag?: string;
  /** Changes per feed page, 1–100 (the API's `limit`). Default: the server's, 100. */
  readonly pageSize?: number;
  /**
   * `true` for a preview deployment with a preview key (`cp_preview_…`): drafts as they would
   * be published. Default `false`, and a preview key is then refused: drafts never reach a
   * public build by a mixed-up key.
   */
  readonly preview?: boolean;
};

/** An Astro content-layer loader whose `schema` types `getCollection`'s entries. */
export interface PressroomLoader<F extends BlogField = BlogField> {
  readonly name: string;
  readonly schema: BlogSchema<F>;
  load(context: LoaderContext): Promise<void>;
}

/** The meta store's keys (one meta store per collection). */
const TOKEN = "pressroom:token";
const OPTIONS = "pressroom:options";
/** Bumped when what an entry holds changes shape: an older store is then loaded again. */
const STORE_FORMAT = 1;

/**
 * Astro's content layer over the changes feed (sdk/README.md, "Sync"): the first build loads every
 * released blog, later builds ask only for what changed since the token kept in Astro's meta
 * store, which persists beside the entries (`node_modules/.astro/`). Entries are keyed by the
 * blog's `id`: a feed `delete` carries only the id, and a slug can change; pages route on
 * `entry.data.slug`.
 */
export function pressroomLoader<const F extends BlogField = BlogField>(
  options: PressroomLoaderOptions<F>,
): PressroomLoader<F> {
  const { fields, tag, pageSize } = options;
  const schema = schemaFor(fields);
  const keep = fields === undefined ? undefined : new Set<BlogField>(["id", ...fields]);
  // Entries made under other options (or another server) are not these: start again.
  const fingerprint = JSON.stringify({
    format: STORE_FORMAT,
    baseUrl: options.client?.baseUrl ?? options.baseUrl,
    fields: keep === undefined ? null : [...keep].sort(),
    tag: tag ?? null,
    preview: options.preview ?? false,
  });

  return {
    name: "@pressroom/astro",
    schema,
    async load(context) {
      const { meta, logger } = context;
      const client = clientOf(options);
      if (meta.get(OPTIONS) !== fingerprint) {
        context.store.clear();
        meta.delete(TOKEN);
        meta.set(OPTIONS, fingerprint);
      }
      const store = astroSyncStore(context, keep, tag);
      const call = pageSize === undefined ? { store } : { store, limit: pageSize };
      const from = meta.has(TOKEN) ? "changes since the last build" : "every released blog";
      let result: Awaited<ReturnType<typeof client.changes.sync>>;
      try {
        result = await client.changes.sync(call);
      } catch (error) {
        // A token of another workspace (the key was changed): the feed refuses it with 400.
        if (!(error instanceof BadRequestError) || !meta.has(TOKEN)) throw error;
        logger.warn(`the kept sync token was refused (${error.message}); loading everything`);
        await store.clear();
        result = await client.changes.sync(call);
      }
      const restarted = result.restarted ? " (token expired: loaded again)" : "";
      logger.info(
        `${from}: ${result.upserts} upserts, ${result.deletes} deletes, ` +
          `${result.pages} page${result.pages === 1 ? "" : "s"}${restarted}; ` +
          `${context.store.keys().length} entries`,
      );
    },
  };
}

function clientOf(options: PressroomLoaderOptions<BlogField>): PressroomClient {
  const preview = options.preview ?? false;
  const client =
    options.client ?? createClient({ apiKey: options.apiKey, baseUrl: options.baseUrl, preview });
  if (client.preview !== preview) {
    throw new TypeError(
      client.preview
        ? "@pressroom/astro: a preview key reads drafts; pass `preview: true` only for a preview deployment."
        : "@pressroom/astro: `preview: true` needs a preview client (a cp_preview_… key).",
    );
  }
  return client;
}

/** The SDK's `SyncStore` over Astro's entry store and meta store. */
function astroSyncStore(
  context: LoaderContext,
  keep: ReadonlySet<BlogField> | undefined,
  tag: string | undefined,
): SyncStore {
  const { store, meta, parseData, generateDigest } = context;

  async function upsert(blog: Blog): Promise<void> {
    // The feed has no tag filter: a blog that lost the tag arrives as an upsert, and goes.
    if (tag !== undefined && !blog.tags.includes(tag)) {
      store.delete(blog.id);
      return;
    }
    const picked = pick(blog, keep);
    const data = await parseData({ id: blog.id, data: picked });
    const rendered = typeof data.bodyHtml === "string" ? { html: data.bodyHtml } : undefined;
    store.set({
      id: blog.id,
      data,
      digest: generateDigest(picked),
      ...(rendered === undefined ? {} : { rendered }),
    });
  }

  return {
    getToken: () => meta.get(TOKEN),
    async apply(changes: readonly Change[], nextToken: string) {
      for (const change of changes) {
        if (change.type === "upsert") await upsert(change.blog);
        else store.delete(change.id);
      }
      meta.set(TOKEN, nextToken);
    },
    clear() {
      store.clear();
      meta.delete(TOKEN);
    },
  };
}

function pick(blog: Blog, keep: ReadonlySet<BlogField> | undefined): Record<string, unknown> {
  if (keep === undefined) return { ...blog };
  const out: Record<string, unknown> = {};
  for (const field of keep) out[field] = blog[field];
  return out;
}
