import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Db } from "mongodb";
import { inlineRenderer } from "../../server/src/blogs/render-pool.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { applyImport } from "../../server/src/transfer/import-apply.js";
import { planImport } from "../../server/src/transfer/import-plan.js";
import { readPressroomExport } from "../../server/src/transfer/pressroom-format.js";

/** A released blog of a generated Pressroom export: its name and release time. */
export interface ReleasedInExport {
  readonly name: string;
  readonly releasedAt: Date;
  readonly tags?: readonly string[];
}

/**
 * Imports released blogs through the import's own plan and apply (server/src/transfer/), from a
 * generated Pressroom export: each is marked for the changes feed as an import leaves it, and
 * not recorded (no `pressroom import` run, which records its marks). The import names the blogs
 * itself. Returns how many it created.
 */
export async function importReleased(
  db: Db,
  workspaceId: string,
  blogs: readonly ReleasedInExport[],
): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), "pressroom-import-released-"));
  const file = path.join(dir, "site.json");
  await writeFile(
    file,
    JSON.stringify({
      format: "pressroom.workspace-export",
      version: 1,
      keys: [],
      blogs: blogs.map(({ name, releasedAt, tags = [] }) => ({
        id: `b_${name}`,
        slug: name,
        title: `Title ${name}`,
        status: "released",
        bodyMarkdown: `Body of ${name}.`,
        excerpt: null,
        tags,
        authorName: "Ada",
        coverImageUrl: null,
        createdAt: releasedAt.toISOString(),
        updatedAt: releasedAt.toISOString(),
        releasedAt: releasedAt.toISOString(),
        removedAt: null,
      })),
    }),
  );
  const c = collections(db);
  const plan = await planImport(
    c,
    inlineRenderer,
    workspaceId,
    await readPressroomExport(file, {}),
  );
  return (await applyImport(c, plan, { source: "test", now: new Date() })).created;
}
