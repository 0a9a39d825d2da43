/**
 * A periodic sync on the changes feed: mirrors every released blog of a workspace into a folder,
 * one JSON file per blog. Run it from cron or a scheduler every few minutes:
 *
 *   PRESSROOM_API_KEY=cp_live_… PRESSROOM_BASE_URL=https://pressroom.example.com \
 *     npx tsx sync.ts ./blogs
 *
 * - the first run writes a file per released blog; each later run asks only for what changed
 *   since the token it kept (<dir>/.pressroom-sync-token): it writes the blogs released or edited
 *   since, and deletes the files of blogs unreleased or removed since. An unchanged workspace
 *   costs one small request;
 * - the token is saved only after its page is applied, so a run that fails (or is stopped) is
 *   simply repeated by the next one; a token the server no longer accepts (too old) makes the
 *   SDK clear the folder and start again;
 * - prints a summary line; on failure, exits 1 with the error (its message names the status and
 *   the request id, never the key).
 *
 * PRESSROOM_PAGE_SIZE (1–100, default 100) sets the page size.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Change, createClient, PressroomError, type SyncStore } from "@pressroom/sdk";

const TOKEN_FILE = ".pressroom-sync-token";
/** Blog IDs become file names: accept only IDs that cannot escape the folder. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;
const BLOG_FILE = /^[A-Za-z0-9_-]{1,100}\.json$/;

async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text, "utf8");
  await rename(temp, file);
}

function fileOf(dir: string, id: string): string {
  if (!SAFE_ID.test(id)) throw new Error(`Refusing a blog with ID ${id}`);
  return path.join(dir, `${id}.json`);
}

/** A SyncStore in a folder: a JSON file per blog, and the token in a file of its own. */
class FolderSyncStore implements SyncStore {
  readonly stats = { written: 0, unchanged: 0, deleted: 0 };
  constructor(readonly dir: string) {}

  async getToken(): Promise<string | undefined> {
    const token = await readFile(path.join(this.dir, TOKEN_FILE), "utf8").catch(() => "");
    return token.trim() === "" ? undefined : token.trim();
  }

  async apply(changes: readonly Change[], nextToken: string): Promise<void> {
    for (const change of changes) {
      if (change.type === "upsert") {
        const file = fileOf(this.dir, change.blog.id);
        const text = `${JSON.stringify(change.blog, null, 2)}\n`;
        if ((await readFile(file, "utf8").catch(() => undefined)) === text) {
          this.stats.unchanged++;
        } else {
          await writeAtomically(file, text);
          this.stats.written++;
        }
      } else {
        const file = fileOf(this.dir, change.id);
        if (
          await rm(file).then(
            () => true,
            () => false,
          )
        )
          this.stats.deleted++;
      }
    }
    // Only now: a crash before this line repeats the page next time, which is harmless.
    await writeAtomically(path.join(this.dir, TOKEN_FILE), `${nextToken}\n`);
  }

  async clear(): Promise<void> {
    for (const name of await readdir(this.dir)) {
      if (BLOG_FILE.test(name) || name === TOKEN_FILE) await rm(path.join(this.dir, name));
    }
  }
}

async function sync(dir: string, apiKey: string, baseUrl: string, limit: number) {
  await mkdir(dir, { recursive: true });
  const store = new FolderSyncStore(dir);
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort());
  let requests = 0;
  const client = createClient({
    apiKey,
    baseUrl,
    onResponse: (info) => {
      requests += info.attempts;
    },
  });
  const result = await client.changes.sync({ store, limit, signal: controller.signal });
  return { ...result, ...store.stats, requests };
}

async function main(): Promise<number> {
  const dir = process.argv[2];
  const apiKey = process.env.PRESSROOM_API_KEY;
  const baseUrl = process.env.PRESSROOM_BASE_URL ?? "http://localhost:3000";
  const limit = Number(process.env.PRESSROOM_PAGE_SIZE ?? "100");
  if (dir === undefined || apiKey === undefined || apiKey === "") {
    console.error("usage: PRESSROOM_API_KEY=cp_live_… [PRESSROOM_BASE_URL=…] sync.ts <dir>");
    return 2;
  }
  try {
    const s = await sync(dir, apiKey, baseUrl, limit);
    console.log(
      `synced ${dir}: written ${s.written}, deleted ${s.deleted}, unchanged ${s.unchanged}; ` +
        `pages ${s.pages}, requests ${s.requests}${s.restarted ? ", started again (token expired)" : ""}`,
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
