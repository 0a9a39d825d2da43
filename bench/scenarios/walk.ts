import { keyHeader, type Scenario } from "./scenario.js";

/** The paths of every page of the list, `limit` blogs each, as a client walking it asks. */
export async function walkPages(base: string, key: string, limit: number): Promise<string[]> {
  const paths: string[] = [];
  let cursor: string | null = null;
  do {
    const p: string = `/api/consumer/blogs?limit=${limit}${cursor === null ? "" : `&cursor=${cursor}`}`;
    paths.push(p);
    const res = await fetch(`${base}${p}`, { headers: { "x-api-key": key } });
    cursor = ((await res.json()) as { nextCursor: string | null }).nextCursor;
  } while (cursor !== null);
  return paths;
}

/** Every page of 100 of the list in turn (cursors taken from the server measured). */
export const walk: Scenario = {
  id: "walk",
  title: "list walk, all pages of 100",
  expect: 200,
  dbBound: true,
  requests: async (server, workspace) =>
    (await walkPages(server.url, workspace.keys[0] ?? "", 100)).map((path, i) => ({
      path,
      headers: keyHeader(workspace, i),
    })),
};
