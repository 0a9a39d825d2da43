import type { BlogReads } from "../blogs/blog-reads.js";
import type { FeedSet } from "./changes-feed.js";

/** The live feed's set: released blogs, as stored. */
export const releasedSet = (
  blogs: Pick<BlogReads, "listReleased" | "listReleasedMarks" | "getManyViews">,
): FeedSet => ({
  page: (workspaceId, limit, after) => blogs.listReleased(workspaceId, limit, after),
  async candidates(workspaceId, limit, after) {
    const page = await blogs.listReleasedMarks(workspaceId, limit, after);
    return {
      candidates: page.blogs.map((blog) => ({
        _id: blog._id,
        position: { at: blog.releasedAt ?? new Date(0), id: blog._id },
        marked: blog.feedPending === true,
        version: blog.revision,
      })),
      next: page.next,
    };
  },
  async current(workspaceId, ids) {
    const docs = await blogs.getManyViews(workspaceId, ids);
    return new Map(
      docs.map((doc) => [
        doc._id,
        doc.status === "released" ? doc : (doc.removedAt ?? doc.updatedAt),
      ]),
    );
  },
});
