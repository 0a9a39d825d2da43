import type { Db } from "mongodb";
import type { BlogWrites } from "../../server/src/blogs/blog-writes.js";
import type { NewBlog } from "../../server/src/blogs/blogs-store.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { createStores } from "../../server/src/stores.js";

/** The app's stores (blogs rendered inline), and the collections the tests read directly. */
export const stores = (db: Db) => {
  const { keys, blogs, workspaces, users } = createStores(db);
  return { ...collections(db), keys, blogs, workspaces, users };
};

export interface SeededWorkspace {
  workspaceId: string;
  /** Released blog ids, newest release first. */
  released: string[];
  draft: string;
  removed: string;
  key: string;
  keyId: string;
}

const blog = (i: number, extra: Partial<NewBlog> = {}): NewBlog => ({
  title: `Post ${i}`,
  bodyMarkdown: `Paragraph of post ${i}.\n\n## Section\n\nMore *text* with a [link](https://example.com/${i}).\n`,
  tags: ["news"],
  authorName: "Test Author",
  ...extra,
});

/** A workspace with `releasedCount` released blogs, a draft, a removed blog and an active key. */
export async function seedWorkspace(
  db: Db,
  name: string,
  releasedCount = 3,
): Promise<SeededWorkspace> {
  const s = stores(db);
  const { _id: workspaceId } = await s.workspaces.create(name);
  const released: string[] = [];
  for (let i = 0; i < releasedCount; i++) {
    released.unshift((await s.blogs.create(workspaceId, blog(i, { release: true })))._id);
    // Distinct release times keep the expected order independent of the tie-break.
    await new Promise((r) => setTimeout(r, 2));
  }
  const draft = (await s.blogs.create(workspaceId, blog(100, { title: `${name} draft` })))._id;
  const removed = (await s.blogs.create(workspaceId, blog(101, { release: true })))._id;
  await s.blogs.setStatus(workspaceId, removed, "removed");
  const minted = await s.keys.mint(workspaceId, `${name} website`);
  return { workspaceId, released, draft, removed, key: minted.key, keyId: minted.id };
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** A GET with the given headers; parses JSON when there is a body. */
export async function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** `key` with its last checksum character changed: well-shaped, never a key the server knows. */
export const withWrongChecksum = (key: string): string =>
  `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;

/**
 * An edit consumers see: saved, then published (a released blog's edit is staged until then:
 * admin.yaml, "Staged changes"; on a draft the publish changes nothing). The blog as published.
 */
export async function editLive(
  blogs: Pick<BlogWrites, "update" | "publish">,
  workspaceId: string,
  blogId: string,
  patch: Parameters<BlogWrites["update"]>[2],
) {
  await blogs.update(workspaceId, blogId, patch);
  return blogs.publish(workspaceId, blogId);
}
