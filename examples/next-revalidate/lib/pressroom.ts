import { createClient, NotFoundError, type PressroomClient } from "@pressroom/sdk";
import { BLOGS_TAG, blogTag } from "./tags";

/**
 * A Pressroom client whose requests go through Next's `fetch` with `cache: "force-cache"` and the
 * given tags, so their answers sit in Next's Data Cache until a webhook revalidates a tag. The
 * SDK's own ETag cache is off: Next's cache is the one that decides here.
 */
function clientTagged(tags: string[]): PressroomClient {
  return createClient({
    apiKey: requiredEnv("PRESSROOM_API_KEY"),
    baseUrl: requiredEnv("PRESSROOM_BASE_URL"),
    cache: false,
    fetch: (request) => fetch(request, { cache: "force-cache", next: { tags } }),
  });
}

/** The first page of released blogs (newest first), cached under the list tag. */
export async function listBlogs() {
  const page = await clientTagged([BLOGS_TAG]).blogs.list({
    fields: ["id", "slug", "title", "excerpt"],
  });
  return page.data;
}

/**
 * A released blog by its slug, or `undefined`. Two cached requests: which blog has this slug
 * (under the list tag, since a webhook names only a blog's slug after a change, so a renamed or
 * unreleased blog's old slug is looked up again at the next event), then that blog's content
 * (under its own tag, refetched only when an event names it).
 */
export async function blogBySlug(slug: string) {
  try {
    const { id } = await clientTagged([BLOGS_TAG]).blogs.getBySlug(slug, { fields: ["id"] });
    return await clientTagged([blogTag(id)]).blogs.get(id);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`Set ${name} (see README.md).`);
  return value;
}
