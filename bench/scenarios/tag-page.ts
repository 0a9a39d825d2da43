import { COMMON_TAG, RARE_TAG } from "../seed.js";
import { keyHeader, type Scenario } from "./scenario.js";

/** The first page of a tag's blogs (openapi.yaml, "Tags"), 20 blogs, with each key in turn. */
const tagPage = (id: string, tag: string, share: string): Scenario => ({
  id,
  title: `tag page, limit 20 (a tag on ${share} of blogs)`,
  expect: 200,
  dbBound: true,
  requests: async (_server, workspace) =>
    workspace.keys.map((_, i) => ({
      path: `/api/consumer/blogs?limit=20&tag=${encodeURIComponent(tag)}`,
      headers: keyHeader(workspace, i),
    })),
});

/** A tag on 10 % of blogs: a page fills after about 200 blogs in release order. */
export const tagPageCommon = tagPage("tag-10", COMMON_TAG, "10 %");
/**
 * A tag on 0.1 % of blogs: the page has the tag's few blogs, and on a database that walks the
 * released list to find them (FerretDB without a tags index) the walk is the whole list.
 */
export const tagPageRare = tagPage("tag-0.1", RARE_TAG, "0.1 %");
