import { fetchEtag, keyHeader, type Scenario } from "./scenario.js";

/** The first page with `If-None-Match` its current ETag: 304, no body. */
export const list304: Scenario = {
  id: "list304",
  title: "list, matching If-None-Match (304)",
  expect: 304,
  dbBound: true,
  requests: async (server, workspace) => {
    const path = "/api/consumer/blogs?limit=20";
    const etag = await fetchEtag(`${server.url}${path}`, workspace.keys[0] ?? "");
    return workspace.keys.map((_, i) => ({
      path,
      headers: { ...keyHeader(workspace, i), "if-none-match": etag },
    }));
  },
};
