import { keyHeader, type Scenario } from "./scenario.js";

/** The workspace's tags with their counts (openapi.yaml, listTags), with each key in turn. */
export const tags: Scenario = {
  id: "tags",
  title: "tag list with counts",
  expect: 200,
  dbBound: true,
  requests: async (_server, workspace) =>
    workspace.keys.map((_, i) => ({
      path: "/api/consumer/tags",
      headers: keyHeader(workspace, i),
    })),
};
