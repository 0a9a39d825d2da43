import { keyHeader, type Scenario } from "./scenario.js";
import { walkPages } from "./walk.js";

/**
 * A page of 20 deep in the list: the cursors of the last tenth of a walk in pages of 100 (taken
 * from the server measured), each asked for 20 blogs, so every request starts a keyset range
 * near the end of the workspace's released list.
 */
export const deepPage: Scenario = {
  id: "deep-page",
  title: "list, limit 20, a cursor in the last tenth",
  expect: 200,
  dbBound: true,
  requests: async (server, workspace) => {
    const pages = await walkPages(server.url, workspace.keys[0] ?? "", 100);
    return pages.slice(Math.floor(pages.length * 0.9), -1).map((path, i) => ({
      path: path.replace("limit=100", "limit=20"),
      headers: keyHeader(workspace, i),
    }));
  },
};
