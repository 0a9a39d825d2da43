import { fetchEtag, keyHeader, type Scenario, spreadSample } from "./scenario.js";

/** A get whose `If-None-Match` is the blog's current ETag: 304, no body. */
export const get304: Scenario = {
  id: "get304",
  title: "get, matching If-None-Match (304)",
  expect: 304,
  dbBound: false,
  requests: async (server, workspace) =>
    Promise.all(
      spreadSample(workspace)
        .slice(0, 40)
        .map(async (id, i) => {
          const path = `/api/consumer/blogs/${id}`;
          const headers = keyHeader(workspace, i);
          const etag = await fetchEtag(`${server.url}${path}`, headers["x-api-key"] ?? "");
          return { path, headers: { ...headers, "if-none-match": etag } };
        }),
    ),
};
