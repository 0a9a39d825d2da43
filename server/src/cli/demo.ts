import type { Stores } from "../stores.js";

const POSTS = [
  {
    title: "Spring release notes",
    tags: ["release-notes", "product"],
    author: "Ada Lovelace",
    cover: "https://images.example.com/covers/spring.jpg",
    body: "Everything that shipped this spring, in five minutes.\n\n## Faster syncs\n\nLists now answer **304 Not Modified** when nothing changed, so a periodic sync costs almost nothing.\n\n## Key rotation\n\n1. Mint a new key\n2. Deploy it\n3. Watch *last used* move\n4. Revoke the old one\n",
  },
  {
    title: "How we write changelogs",
    tags: ["writing"],
    author: "Grace Hopper",
    cover: null,
    body: "A changelog is a letter to the people who depend on you.\n\n> Say what changed, why it matters, and what to do about it.\n\nWe keep entries short and link to the details.\n",
  },
  {
    title: "Caching the consumer API",
    tags: ["engineering", "caching"],
    author: "Barbara Liskov",
    cover: "https://images.example.com/covers/cache.png",
    body: "Every response carries a strong `ETag`.\n\n```sh\ncurl -H 'x-api-key: $KEY' -H 'If-None-Match: \"…\"' https://example.com/api/consumer/blogs\n```\n\nSend it back and unchanged content costs one tiny response.\n",
  },
  {
    title: "Welcome to Pressroom",
    tags: ["announcements"],
    author: "Pressroom team",
    cover: null,
    body: "Pressroom hands your workspace's released blogs to the sites and apps you build.\n\nDrafts stay private until you release them.\n",
  },
] as const;

export interface DemoResult {
  workspaceId: string;
  released: string[];
  drafts: string[];
  removed: string[];
}

/** A workspace with a handful of realistic blogs: four released, one draft, one removed. */
export async function seedDemo({
  workspaces,
  blogs,
}: Pick<Stores, "workspaces" | "blogs">): Promise<DemoResult> {
  const { _id: workspaceId } = await workspaces.create("Demo workspace");
  const released: string[] = [];
  for (const post of POSTS) {
    const blog = await blogs.create(workspaceId, {
      title: post.title,
      bodyMarkdown: post.body,
      tags: [...post.tags],
      authorName: post.author,
      coverImageUrl: post.cover,
      release: true,
    });
    released.push(blog._id);
  }
  const draft = await blogs.create(workspaceId, {
    title: "Roadmap for next quarter (draft)",
    bodyMarkdown: "Not ready yet: consumers never see drafts.\n",
    authorName: "Ada Lovelace",
  });
  const gone = await blogs.create(workspaceId, {
    title: "An announcement we took back",
    bodyMarkdown: "Removed blogs are never returned.\n",
    release: true,
  });
  await blogs.setStatus(workspaceId, gone._id, "removed");
  return { workspaceId, released, drafts: [draft._id], removed: [gone._id] };
}
