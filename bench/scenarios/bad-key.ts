import { generateKey } from "../../server/src/keys/key-format.js";
import { type Scenario, spreadSample } from "./scenario.js";

/**
 * A get with a key no one minted. Well-formed (right shape and checksum), so both servers must
 * look it up: 401.
 */
export const badKey: Scenario = {
  id: "bad-key",
  title: "unknown key (401)",
  expect: 401,
  dbBound: false,
  requests: async (_server, workspace) =>
    spreadSample(workspace)
      .slice(0, 10)
      .map((id) => ({
        path: `/api/consumer/blogs/${id}`,
        headers: { "x-api-key": generateKey().raw },
      })),
};
