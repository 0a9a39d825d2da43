import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { runCli, type ServerProcess, startServerProcess } from "../support/cli.js";

// Images follow the database (README, "Media": "Where the bytes live"; "Backups and restores"):
// `pressroom db backup` of a DATA_DIR whose library holds an image, restored into a fresh
// DATA_DIR, serves that image's bytes, and a copy made before the backup, identically from a
// `pressroom start` on the restored one, whose cache of files starts empty.

type Media = components["schemas"]["Media"];

let root: string;
const started: ServerProcess[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pressroom-backup-media-"));
});
afterAll(async () => {
  for (const s of started) s.child.kill("SIGKILL");
  await rm(root, { recursive: true, force: true });
});

async function served(url: string): Promise<{ bytes: Buffer; type: string | null }> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return { bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get("content-type") };
}

describe("happy: a backup carries the media library (README, 'Backups and restores')", () => {
  it("an uploaded image and its copy serve the same bytes from a server on the restored DATA_DIR", async () => {
    const source = path.join(root, "source");
    const restored = path.join(root, "restored");
    const backupFile = path.join(root, "backup.sqlite");
    const server = await startServerProcess({ DATA_DIR: source });
    started.push(server);
    const owner = new AdminClient(server.url);
    const setup = await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER);
    const ws = setup.body.workspaces[0]?.id ?? "";
    const jpeg = await sharp({
      create: { width: 320, height: 200, channels: 3, background: "#2a6" },
    })
      .jpeg()
      .toBuffer();
    const res = await fetch(
      `${server.url}/api/admin/workspaces/${ws}/media?name=field.jpg&alt=A%20field`,
      {
        method: "POST",
        headers: { cookie: owner.cookie ?? "", origin: server.url, "content-type": "image/jpeg" },
        body: new Uint8Array(jpeg),
      },
    );
    expect(res.status).toBe(201);
    const media = (await res.json()) as Media;
    const original = await served(media.url);
    const copy = await served(`${media.url}?w=128&fm=webp`);

    const backup = await runCli(["db", "backup", "--out", backupFile], { DATA_DIR: source });
    expect(backup.code, backup.stderr).toBe(0);
    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);

    const restore = await runCli(["db", "restore", backupFile], { DATA_DIR: restored });
    expect(restore.code, restore.stderr).toBe(0);
    // Nothing of the source's files beside the database: the restored server has no cache.
    await expect(readdir(path.join(restored, "media"))).rejects.toThrow();
    const onRestored = await startServerProcess({ DATA_DIR: restored });
    started.push(onRestored);
    const url = media.url.replace(server.url, onRestored.url);
    expect(await served(url)).toEqual(original);
    expect(await served(`${url}?w=128&fm=webp`)).toEqual(copy);
    expect(original.type).toBe("image/jpeg");
    expect(copy.type).toBe("image/webp");
    onRestored.child.kill("SIGTERM");
    expect(await onRestored.exit).toBe(0);
  });
});
