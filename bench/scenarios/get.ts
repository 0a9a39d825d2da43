import { keyHeader, type Scenario, spreadSample } from "./scenario.js";

/** One released blog by id, spread over the list and over the keys. */
export const get: Scenario = {
  id: "get",
  title: "get one blog",
  expect: 200,
  dbBound: false,
  requests: async (_server, workspace) =>
    spreadSample(workspace).map((id, i) => ({
      path: `/api/consumer/blogs/${id}`,
      headers: keyHeader(workspace, i),
    })),
};
