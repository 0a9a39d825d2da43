/**
 * A periodic sync: mirrors every released blog of a workspace into a folder, one JSON file per
 * blog. Run it from cron or a scheduler every few minutes:
 *
 *   PRESSROOM_API_KEY=cp_live_… PRESSROOM_BASE_URL=https://pressroom.example.com \
 *     npx tsx sync.ts ./blogs
 *
 * - writes the blogs that are new or changed, deletes the files of blogs no longer released
 *   (only after a complete walk, so a failed run never deletes anything), leaves the rest alone;
 * - keeps the SDK's ETag cache in <dir>/.pressroom-cache.json, so the next run — a new process —
 *   only revalidates: an unchanged workspace costs one bodiless 304 per page;
 * - prints a summary line; on failure, exits 1 with the error (its message names the status and
 *   the request id).
 *
 * PRESSROOM_PAGE_SIZE (1–100, default 100) sets the page size.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  type Blog,
  type CacheEntry,
  type CacheStore,
  createClient,
  PressroomError,
} from "@pressroom/sdk";

const CACHE_FILE = ".pressroom-cache.json";
/** Blog IDs become file names: accept only IDs that cannot escape the folder. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const BLOG_FILE = /^[A-Za-z0-9_-]{1,100}\.json$/;

/**
 * A CacheStore in one JSON file. It keeps only the entries this run used, so pages that no longer
 * exist (their cursors changed) do not pile up. Written atomically (temp file, then rename).
 */
class FileCacheStore implements CacheStore {
  readonly #file: string;
  readonly #entries: Map<string, CacheEntry>;
  readonly #used = new Set<string>();

  private constructor(file: string, entries: Map<string, CacheEntry>) {
    this.#file = file;
    this.#entries = entries;
  }

  static async open(file: string): Promise<FileCacheStore> {
    let entries = new Map<string, CacheEntry>();
    try {
      const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
      // The SDK checks each entry it reads, so a hand-edited file cannot break a sync.
      if (typeof parsed === "object" && parsed !== null) {
        entries = new Map(Object.entries(parsed as Record<string, CacheEntry>));
      }
    } catch {
      // No cache yet (or an unreadable one): this run fetches everything in full.
    }
    return new FileCacheStore(file, entries);
  }

  get(key: string): CacheEntry | undefined {
    this.#used.add(key);
    return this.#entries.get(key);
  }

  set(key: string, entry: CacheEntry): void {
    this.#used.add(key);
    this.#entries.set(key, entry);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  async save(): Promise<void> {
    const kept = [...this.#entries].filter(([key]) => this.#used.has(key));
    await writeAtomically(this.#file, JSON.stringify(Object.fromEntries(kept)));
  }
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text, "utf8");
  await rename(temp, file);
}

async function sync(dir: string, apiKey: string, baseUrl: string, pageSize: number) {
  await mkdir(dir, { recursive: true });
  const cache = await FileCacheStore.open(path.join(dir, CACHE_FILE));
  const stats = { fetched: 0, written: 0, deleted: 0, unchanged: 0, requests: 0, notModified: 0 };
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());

  const client = createClient({
    apiKey,
    baseUrl,
    cache: { store: cache },
    onResponse: (info) => {
      stats.requests += info.attempts;
      if (info.notModified) stats.notModified++;
    },
  });

  const listed = new Set<string>();
  for await (const blog of client.blogs.listAll({ limit: pageSize, signal: controller.signal })) {
    stats.fetched++;
    const name = fileNameOf(blog);
    listed.add(name);
    const file = path.join(dir, name);
    const text = `${JSON.stringify(blog, null, 2)}\n`;
    const current = await readFile(file, "utf8").catch(() => undefined);
    if (current === text) {
      stats.unchanged++;
    } else {
      await writeAtomically(file, text);
      stats.written++;
    }
  }

  // The walk is complete: whatever is not listed any more was unreleased or removed.
  for (const name of await readdir(dir)) {
    if (BLOG_FILE.test(name) && !listed.has(name)) {
      await rm(path.join(dir, name));
      stats.deleted++;
    }
  }
  await cache.save();
  return stats;
}

function fileNameOf(blog: Blog): string {
  if (!SAFE_ID.test(blog.id)) throw new Error(`Refusing to write a blog with ID ${blog.id}`);
  return `${blog.id}.json`;
}

async function main(): Promise<number> {
  const dir = process.argv[2];
  const apiKey = process.env.PRESSROOM_API_KEY;
  const baseUrl = process.env.PRESSROOM_BASE_URL ?? "http://localhost:3000";
  const pageSize = Number(process.env.PRESSROOM_PAGE_SIZE ?? "100");
  if (dir === undefined || apiKey === undefined || apiKey === "") {
    console.error("usage: PRESSROOM_API_KEY=cp_live_… [PRESSROOM_BASE_URL=…] sync.ts <dir>");
    return 2;
  }
  try {
    const s = await sync(dir, apiKey, baseUrl, pageSize);
    console.log(
      `synced ${dir}: fetched ${s.fetched}, written ${s.written}, deleted ${s.deleted}, ` +
        `unchanged ${s.unchanged}; requests ${s.requests}, not modified ${s.notModified}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof PressroomError) {
      // The message carries the status, request id and attempts; never the key.
      console.error(`sync failed: ${error.name}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
