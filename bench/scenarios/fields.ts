import { keyHeader, type Scenario } from "./scenario.js";

/** The first page of 20 with only `id`, `slug` and `title` (openapi.yaml, "Choosing fields"). */
export const fields: Scenario = {
  id: "fields",
  title: "list, limit 20, fields=id,slug,title",
  expect: 200,
  dbBound: true,
  requests: async (_server, workspace) =>
    workspace.keys.map((_, i) => ({
      path: "/api/consumer/blogs?limit=20&fields=id,slug,title",
      headers: keyHeader(workspace, i),
    })),
};
