import { keyHeader, type Scenario } from "./scenario.js";

/** The first page of the list, 20 blogs, with each key in turn. */
export const list: Scenario = {
  id: "list",
  title: "list, limit 20",
  expect: 200,
  dbBound: true,
  requests: async (_server, workspace) =>
    workspace.keys.map((_, i) => ({
      path: "/api/consumer/blogs?limit=20",
      headers: keyHeader(workspace, i),
    })),
};
