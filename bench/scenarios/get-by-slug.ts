import { keyHeader, type Scenario, spreadSample } from "./scenario.js";

/** One released blog by its slug (openapi.yaml, getBlogBySlug), spread over the list and keys. */
export const getBySlug: Scenario = {
  id: "get-slug",
  title: "get one blog by slug",
  expect: 200,
  dbBound: false,
  requests: async (_server, workspace) =>
    spreadSample(workspace, workspace.releasedSlugs).map((slug, i) => ({
      path: `/api/consumer/blogs/by-slug/${encodeURIComponent(slug)}`,
      headers: keyHeader(workspace, i),
    })),
};
