import type { Db } from "mongodb";
import { changeTokens, type SyncPosition } from "../../server/src/changes/change-token.js";
import { collections } from "../../server/src/platform/db/collections.js";
import type { Blog, ChangePage } from "../../server/src/platform/http/consumer-types.js";
import { get } from "./fixtures.js";

/** A consumer's copy of the released blogs, kept by the changes feed as openapi.yaml says. */
export class Mirror {
  readonly blogs = new Map<string, Blog>();
  token: string | undefined;
  pages = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
    private readonly limit = 100,
    /** Sent with every call (`connection: close`: each call on a connection of its own). */
    private readonly headers: Record<string, string> = {},
    /** The base path: the live feed, or the preview perspective's (openapi.yaml, "Preview"). */
    private readonly base: "consumer" | "preview" = "consumer",
  ) {}

  /** One call: applies its page in order, keeps its token; returns the page. */
  async step(): Promise<ChangePage> {
    const query = new URLSearchParams({ limit: String(this.limit) });
    if (this.token !== undefined) query.set("since", this.token);
    const res = await get(`${this.baseUrl}/api/${this.base}/changes?${query}`, {
      ...this.headers,
      "x-api-key": this.key,
    });
    if (res.status !== 200) throw new Error(`changes answered ${res.status}: ${res.text}`);
    const page = res.body as ChangePage;
    for (const change of page.changes) {
      if (change.type === "upsert") this.blogs.set(change.blog.id, change.blog);
      else this.blogs.delete(change.id);
    }
    this.token = page.nextToken;
    this.pages++;
    return page;
  }

  /** Calls until `hasMore` is false (bounded, so a feed that never ends fails the test). */
  async drain(maxPages = 1000): Promise<void> {
    for (let i = 0; i < maxPages; i++) if (!(await this.step()).hasMore) return;
    throw new Error(`the changes feed still had more after ${maxPages} pages`);
  }

  /** The mirror's blogs, sorted by id. */
  sorted(): Blog[] {
    return [...this.blogs.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}

/** Every released blog of the key's workspace, through the list: the truth a mirror must equal. */
export async function releasedBlogs(
  baseUrl: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<Blog[]> {
  const out: Blog[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "limit=100" : `limit=100&cursor=${cursor}`;
    const res = await get(`${baseUrl}/api/consumer/blogs?${query}`, {
      ...headers,
      "x-api-key": key,
    });
    const page = res.body as { data: Blog[]; nextCursor: string | null };
    out.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * A token signed as the server signs them, with the database's own key, carrying any position:
 * for tokens a client could not get by waiting (expired, from the future, past the feed's end).
 */
export const signedToken = (db: Db, position: SyncPosition): Promise<string> =>
  changeTokens(collections(db)).encode(position);
