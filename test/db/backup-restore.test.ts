import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  truncate,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Db, type Document, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_AUTHORS } from "../../server/src/blogs/blog-authors.js";
import { toBlog } from "../../server/src/blogs/blog-view.js";
import { startEmbeddedDb } from "../../server/src/platform/embedded-db/launcher.js";
import type { Blog } from "../../server/src/platform/http/consumer-types.js";
import { runCli, type ServerProcess, startServerProcess } from "../support/cli.js";
import { get, stores } from "../support/fixtures.js";
import { unthrottle } from "../support/rate-limits.js";

// `pressroom db backup` and `pressroom db restore` (README, "Operator CLI"; the copy itself:
// server/embedded-db/README.md, "Backups") work on the embedded database of DATA_DIR, so this
// file runs `pressroom start` processes on data directories of its own, with or without
// MONGODB_URI in the suite's environment.

const WRITERS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = async (file: string) =>
  createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
const dbFile = (dataDir: string) => path.join(dataDir, "ferretdb", "pressroom.sqlite");
/** What a refused command must leave as it was: the data dir's database files and their bytes. */
const filesOf = async (dataDir: string) => {
  const dir = path.join(dataDir, "ferretdb");
  const names = (await readdir(dir)).sort();
  return { names, db: await sha256(dbFile(dataDir)), inode: (await stat(dbFile(dataDir))).ino };
};

/** Every released blog of the key's workspace, through the consumer API, page after page. */
async function consumerWalk(url: string, key: string): Promise<Map<string, Blog>> {
  const blogs = new Map<string, Blog>();
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const res = await get(`${url}/api/consumer/blogs?limit=100${query}`, { "x-api-key": key });
    expect(res.status).toBe(200);
    const page = res.body as { data: Blog[]; nextCursor: string | null };
    for (const blog of page.data) blogs.set(blog.id, blog);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return blogs;
}

type Contents = Record<string, Document[]>;
/** Every document of every collection of `db`, collections by name, documents by _id. */
async function dump(db: Db): Promise<Contents> {
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  const contents: Contents = {};
  for (const name of names.sort()) {
    contents[name] = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
  }
  return contents;
}
/** The documents of a database file (and its -wal if one is beside it), read by FerretDB from a copy. */
async function contentsOf(file: string): Promise<Contents> {
  const dir = await mkdtemp(path.join(root, "contents-"));
  await copyFile(file, path.join(dir, "pressroom.sqlite"));
  await copyFile(`${file}-wal`, path.join(dir, "pressroom.sqlite-wal")).catch(() => {});
  const embedded = await startEmbeddedDb({ dataDir: dir, onProgress: () => {} });
  const client = await MongoClient.connect(embedded.uri);
  try {
    return await dump(client.db("pressroom"));
  } finally {
    await client.close();
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

let root: string;
let source: string; // DATA_DIR of the server written to
let restored: string; // DATA_DIR the backup is restored into
let backupFile: string;
let server: ServerProcess;
const started: ServerProcess[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pressroom-backup-"));
  source = path.join(root, "source");
  restored = path.join(root, "restored");
  backupFile = path.join(root, "backup.sqlite");
  server = await startServerProcess({ DATA_DIR: source });
  started.push(server);
});
afterAll(async () => {
  for (const s of started) s.child.kill("SIGKILL");
  await rm(root, { recursive: true, force: true });
});

/*
 * What the happy test proves, and what it cannot: the source cannot be frozen at the moment of
 * the copy, so it checks, for writers that each create blogs one after another, that the
 * restored blogs of each writer are exactly its first k (the copy is one moment, nothing
 * partial), k at least what it had acknowledged before the copy began (complete up to the
 * backup) and nothing any writer was not told was stored; every restored blog equals, field
 * for field through the consumer API, the version its writer was given back. Updates are left
 * out: on the embedded database an update races the server's own writes of the same blog
 * (field notes: no lock), so the source itself would not hold one known version.
 */
describe("happy: a backup taken under write load restores to a consistent, complete database", () => {
  it("every blog acknowledged before the backup started is restored identical, each writer's blogs are a prefix of what it wrote (one moment), and the consumer walk of the restored copy shows them with a key minted before the backup", async () => {
    const { uri } = JSON.parse(await readFile(path.join(source, "embedded-db.json"), "utf8")) as {
      uri: string;
    };
    const client = await MongoClient.connect(uri);
    try {
      const s = stores(client.db("pressroom"));
      // Some volume for the copy to go through while the writers write.
      const { _id: filler } = await s.workspaces.create("Filler");
      const paragraph = `${"Filler text for the copy to go through. ".repeat(50)}\n\n`;
      for (let i = 0; i < 100; i++) {
        await s.blogs.create(filler, { title: `Filler ${i}`, bodyMarkdown: paragraph.repeat(4) });
      }
      const { _id: workspaceId } = await s.workspaces.create("Written during the backup");
      const minted = await s.keys.mint(workspaceId, "Site");
      await unthrottle(client.db("pressroom"), minted.id);

      // Each writer creates released blogs one after another and records each acknowledged one.
      const written: Blog[][] = Array.from({ length: WRITERS }, () => []);
      let writing = true;
      const writers = written.map(async (mine, w) => {
        for (let n = 0; writing; n++) {
          const doc = await s.blogs.create(workspaceId, {
            title: `Writer ${w} blog ${n}`,
            bodyMarkdown: `Blog **${n}** of writer ${w}.\n\n${paragraph}`,
            tags: [`writer-${w}`],
            release: true,
          });
          mine.push(toBlog(doc, NO_AUTHORS));
        }
      });
      while (written.some((mine) => mine.length < 10)) await sleep(20);

      // "Before the backup started" as late as can be known: the launcher creates the temporary
      // file next to FILE (empty, 0600) before it opens the database, so before the copy's read
      // transaction begins (backup.go backupFile, the O_EXCL create before VACUUM INTO). Counts
      // taken before a look that does not find that file yet were acknowledged, hence
      // committed, before the snapshot. (SQLite creating the file itself would be too late: it
      // does so after the read transaction has started.)
      // A copy can be quicker than a writer's next acknowledged write, and then this run proves
      // nothing about load: such a backup is thrown away and taken again (a few tries; the
      // precondition below still fails if none overlapped a write).
      const backUp = async () => {
        let before = written.map((mine) => mine.length);
        let finished = false;
        const running = runCli(["db", "backup", "--out", backupFile, "--json"], {
          DATA_DIR: source,
        }).finally(() => {
          finished = true;
        });
        for (let copying = false; !finished && !copying; ) {
          const counts = written.map((mine) => mine.length);
          copying = (await readdir(root)).some((n) => n.startsWith(".backup.sqlite."));
          if (!copying) before = counts;
          await new Promise((r) => setImmediate(r));
        }
        const backup = await running;
        return { backup, before, after: written.map((mine) => mine.length) };
      };
      const sum = (counts: number[]) => counts.reduce((a, b) => a + b);
      let taken = await backUp();
      for (let tries = 1; tries < 5 && sum(taken.after) <= sum(taken.before); tries++) {
        await rm(backupFile, { force: true });
        taken = await backUp();
      }
      const { backup, before, after } = taken;
      writing = false;
      await Promise.all(writers);
      expect(backup.stderr).toBe("");
      expect(backup.code).toBe(0);
      const report = JSON.parse(backup.stdout) as {
        file: string;
        collections: { name: string; documents: number }[];
      };
      expect(report.file).toBe(backupFile);
      // Writes were acknowledged while the backup ran, or this proves nothing about load.
      expect(sum(after)).toBeGreaterThan(sum(before));

      const restore = await runCli(["db", "restore", backupFile, "--json"], { DATA_DIR: restored });
      expect(restore.code, restore.stderr).toBe(0);
      expect(JSON.parse(restore.stdout)).toMatchObject({ savedTo: null });
      const onRestored = await startServerProcess({ DATA_DIR: restored });
      started.push(onRestored);
      const walk = await consumerWalk(onRestored.url, minted.key);

      let total = 0;
      for (const [w, mine] of written.entries()) {
        // The copy is one moment: writer w's blogs in it are exactly its first k, with k at
        // least what it had acknowledged before the backup started.
        const k = mine.filter((blog) => walk.has(blog.id)).length;
        total += k;
        expect(k).toBeGreaterThanOrEqual(before[w] ?? 0);
        expect(mine.slice(0, k).every((blog) => walk.has(blog.id))).toBe(true);
        // Each one whole and identical to what the writer was told was stored.
        for (const blog of mine.slice(0, k)) expect(walk.get(blog.id)).toEqual(blog);
      }
      // Nothing else: every blog of the walk is one a writer had acknowledged.
      expect(walk.size).toBe(total);
      expect(report.collections.find((c) => c.name === "blogs")?.documents).toBe(100 + total);

      onRestored.child.kill("SIGTERM");
      expect(await onRestored.exit).toBe(0);
    } finally {
      await client.close();
    }
  });
});

describe("error: refusals change nothing", () => {
  it("restore is refused while a server runs on the data dir, and its files are left as they were", async () => {
    const before = await filesOf(source);
    const r = await runCli(["db", "restore", backupFile], { DATA_DIR: source });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Stop the server (and any `pressroom db`) first");
    const now = await filesOf(source);
    // The running server may checkpoint meanwhile: the same files, the same database file.
    expect(now.names).toEqual(before.names);
    expect(now.inode).toBe(before.inode);
  });

  it("no server or `pressroom` command starts its database while a restore holds the data dir's lock, a restore is refused while a start holds it, and a lock whose process is gone is taken over", async () => {
    // README, "Backups and restores": the restore holds <DATA_DIR>/embedded-db.lock throughout.
    const dir = path.join(root, "locked");
    await mkdir(dir);
    const lock = path.join(dir, "embedded-db.lock");
    const hold = (pid: number, holder: string) =>
      writeFile(lock, `${JSON.stringify({ pid, holder })}\n`);
    await hold(process.pid, "restore");
    const blocked = await runCli(["workspace", "list"], { DATA_DIR: dir });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(
      `A restore is replacing the embedded database of ${dir} (\`pressroom db restore\`, process ${process.pid})`,
    );
    await expect(stat(path.join(dir, "embedded-db.json"))).rejects.toThrow();

    await hold(process.pid, "start");
    const refused = await runCli(["db", "restore", backupFile], { DATA_DIR: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `The embedded database of ${dir} is starting (process ${process.pid})`,
    );
    await expect(stat(dbFile(dir))).rejects.toThrow();
    // Neither refusal removed the holder's lock.
    expect(JSON.parse(await readFile(lock, "utf8"))).toEqual({ pid: process.pid, holder: "start" });

    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await hold(gone, "restore");
    const taken = await runCli(["db", "restore", backupFile], { DATA_DIR: dir });
    expect(taken.code, taken.stderr).toBe(0);
    const listed = await runCli(["workspace", "list"], { DATA_DIR: dir });
    expect(listed.code, listed.stderr).toBe(0);
    await expect(stat(lock)).rejects.toThrow();
  });

  it("backup refuses to overwrite an existing file without --force, and replaces it with --force", async () => {
    const kept = await sha256(backupFile);
    const r = await runCli(["db", "backup", "--out", backupFile], { DATA_DIR: source });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${backupFile} exists; use --force to replace it`);
    expect(await sha256(backupFile)).toBe(kept);
    const forced = await runCli(["db", "backup", "--out", backupFile, "--force"], {
      DATA_DIR: source,
    });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`Backup written: ${backupFile}`);
  });

  it("restore refuses a truncated file, garbage and another application's database, saying why, and changes nothing", async () => {
    const before = await filesOf(restored);
    const truncated = path.join(root, "truncated.sqlite");
    await writeFile(truncated, await readFile(backupFile));
    await truncate(truncated, Math.floor((await stat(backupFile)).size / 2));
    const garbage = path.join(root, "garbage.sqlite");
    await writeFile(garbage, "SQLite format 3\0 but not really".repeat(200));
    // A FerretDB database of some other application: no Pressroom collections in it.
    const otherDir = path.join(root, "other");
    const other = await startEmbeddedDb({ dataDir: otherDir, onProgress: () => {} });
    const otherClient = await MongoClient.connect(other.uri);
    await otherClient
      .db("shop")
      .collection("orders")
      .insertOne({ _id: "o1" } as never);
    await otherClient.close();
    await other.stop();

    const cases: [string, string][] = [
      [truncated, "is not a usable backup: "],
      [garbage, "is not a usable backup: not a readable SQLite database"],
      [path.join(otherDir, "shop.sqlite"), "is not a Pressroom database"],
      [path.join(root, "missing.sqlite"), "No such file"],
    ];
    for (const [file, says] of cases) {
      const r = await runCli(["db", "restore", file], { DATA_DIR: restored });
      expect(r.code, file).toBe(1);
      expect(r.stderr, file).toContain(says);
    }
    expect(await filesOf(restored)).toEqual(before);
    expect((await readdir(restored)).filter((n) => n.startsWith(".restore"))).toEqual([]);
  });

  it("with MONGODB_URI set both commands refuse and point at mongodump/mongorestore; no file is written", async () => {
    const env = { MONGODB_URI: "mongodb://127.0.0.1:1/pressroom", DATA_DIR: restored };
    const out = path.join(root, "never.sqlite");
    const backup = await runCli(["db", "backup", "--out", out], env);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toContain("mongodump");
    const restore = await runCli(["db", "restore", backupFile], env);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain("mongorestore");
    await expect(stat(out)).rejects.toThrow();
  });
});

describe("security: backups are private, and a restore never destroys the database it replaces", () => {
  it("the backup file is readable by its owner only (mode 0600): it holds key hashes, sessions and sealed secrets; a restore into a new DATA_DIR makes its database directory owner-only too, as the launcher does", async () => {
    expect((await stat(backupFile)).mode & 0o777).toBe(0o600);
    expect((await stat(path.join(restored, "ferretdb"))).mode & 0o777).toBe(0o700);
  });

  it("the replaced database is kept, byte for byte, in ferretdb/before-restore-<time>/, and the restored database holds exactly the backup's documents", async () => {
    const old = await sha256(dbFile(restored));
    const r = await runCli(["db", "restore", backupFile, "--json"], { DATA_DIR: restored });
    expect(r.code).toBe(0);
    const { savedTo, target } = JSON.parse(r.stdout) as { savedTo: string; target: string };
    expect(path.dirname(savedTo)).toBe(path.join(restored, "ferretdb"));
    expect(path.basename(savedTo)).toMatch(/^before-restore-\d{4}-\d\d-\d\dT/);
    expect(await sha256(path.join(savedTo, "pressroom.sqlite"))).toBe(old);
    expect(target).toBe(dbFile(restored));
    expect(await contentsOf(target)).toEqual(await contentsOf(backupFile));
  });
});

/*
 * A database file's last transactions can be only in its `-wal`: a copy of a running server's
 * files, a data dir after an unclean stop, and the old files a restore keeps in
 * before-restore-<time>/ (README, "Backups and restores"). A restore reads the file through its
 * `-wal`, so restoring that folder is the undo of a restore.
 */
describe("happy: restore reads a database's -wal, so restoring before-restore-<time>/ undoes a restore", () => {
  it("a copy of a running database's file and -wal restores with the blogs only in the -wal; restored over such a data dir, the backup's undo from before-restore-<time>/ gives back exactly the replaced documents and leaves that folder as it was", async () => {
    const live = path.join(root, "wal-live");
    const writer = await startServerProcess({ DATA_DIR: live });
    started.push(writer);
    const { uri } = JSON.parse(await readFile(path.join(live, "embedded-db.json"), "utf8")) as {
      uri: string;
    };
    const client = await MongoClient.connect(uri);
    const raw = path.join(root, "wal-copy");
    let expected: Contents = {};
    let walOnly = false;
    const ids: string[] = [];
    const blogIds = (c: Contents) => (c.blogs ?? []).map((b) => String(b._id));
    try {
      const s = stores(client.db("pressroom"));
      const { _id: workspaceId } = await s.workspaces.create("Only in the WAL");
      await mkdir(raw);
      // SQLite moves the -wal into the file at a checkpoint (every ~1,000 pages, and the server
      // writes on by itself: feed, outbox). Five more blogs are written until a copy's main file
      // lacks some of the latest: otherwise this would prove nothing (at most 3 rounds).
      for (let round = 0; round < 3; round++) {
        const batch: string[] = [];
        for (let i = 0; i < 5; i++) {
          batch.push(
            (
              await s.blogs.create(workspaceId, {
                title: `In the WAL ${round}.${i}`,
                bodyMarkdown: "Only in the -wal.",
              })
            )._id,
          );
        }
        ids.push(...batch);
        // The server is idle: its file and -wal are a consistent pair, as after `kill -9`.
        await copyFile(dbFile(live), path.join(raw, "pressroom.sqlite"));
        await copyFile(`${dbFile(live)}-wal`, path.join(raw, "pressroom.sqlite-wal"));
        expected = await dump(client.db("pressroom"));
        // The main file alone lacks some of them (a young database may not even have FerretDB's
        // tables there yet: everything is in its -wal).
        const mainOnly = path.join(root, `wal-main-only-${round}.sqlite`);
        await copyFile(path.join(raw, "pressroom.sqlite"), mainOnly);
        const alone = await contentsOf(mainOnly).catch((): Contents => ({}));
        walOnly = !batch.every((id) => blogIds(alone).includes(id));
        if (walOnly) break;
      }
    } finally {
      await client.close();
    }
    writer.child.kill("SIGTERM");
    expect(await writer.exit).toBe(0);
    expect(blogIds(expected)).toEqual(expect.arrayContaining(ids));
    // Or this proves nothing.
    expect(walOnly).toBe(true);

    const rawFiles = (await readdir(raw)).sort();
    const into = path.join(root, "wal-restored");
    const r = await runCli(["db", "restore", path.join(raw, "pressroom.sqlite")], {
      DATA_DIR: into,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await contentsOf(dbFile(into))).toEqual(expected);
    expect((await readdir(raw)).sort()).toEqual(rawFiles);

    // A data dir left with a -wal (unclean stop), restored over, then restored back.
    const undo = path.join(root, "wal-undo");
    await mkdir(path.join(undo, "ferretdb"), { recursive: true });
    for (const name of rawFiles)
      await copyFile(path.join(raw, name), path.join(undo, "ferretdb", name));
    const over = await runCli(["db", "restore", backupFile, "--json"], { DATA_DIR: undo });
    expect(over.code, over.stderr).toBe(0);
    const { savedTo } = JSON.parse(over.stdout) as { savedTo: string };
    expect(await contentsOf(dbFile(undo))).toEqual(await contentsOf(backupFile));
    const saved = async () =>
      Promise.all(
        (await readdir(savedTo)).sort().map(async (n) => [n, await sha256(path.join(savedTo, n))]),
      );
    const savedBefore = await saved();
    expect(savedBefore.map(([n]) => n)).toContain("pressroom.sqlite-wal");
    const back = await runCli(["db", "restore", path.join(savedTo, "pressroom.sqlite")], {
      DATA_DIR: undo,
    });
    expect(back.code, back.stderr).toBe(0);
    expect(await contentsOf(dbFile(undo))).toEqual(expected);
    expect(await saved()).toEqual(savedBefore);
  });
});

describe("happy: a backup with no server running", () => {
  it("reads the database file directly and starts no database (no launcher state file appears); the copy restores", async () => {
    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);
    const out = path.join(root, "offline.sqlite");
    const r = await runCli(["db", "backup", "--out", out, "--json"], { DATA_DIR: source });
    expect(r.code, r.stderr).toBe(0);
    await expect(stat(path.join(source, "embedded-db.json"))).rejects.toThrow();
    const offline = JSON.parse(r.stdout) as { collections: { name: string; documents: number }[] };
    // The copy opens in FerretDB with the counts the backup reported (a restore's check).
    const check = await runCli(["db", "restore", out, "--json"], {
      DATA_DIR: path.join(root, "offline"),
    });
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout).collections).toEqual(offline.collections);
    expect(offline.collections.find((c) => c.name === "blogs")?.documents).toBeGreaterThan(100);
  });
});
