import { describe, expect, it } from "vitest";
import { joinTokenOf } from "../../dashboard/src/features/team/join-link.js";

// An invitation link is `/dashboard/#/join/{token}` (admin.yaml, createInvitation): the join
// screen opens only for a fragment of exactly that shape.
describe("the dashboard reads an invitation link's token from the fragment only", () => {
  it("happy: #/join/{token} gives the token", () => {
    const token = "Ab_-".repeat(10).concat("xyz");
    expect(joinTokenOf(`#/join/${token}`)).toBe(token);
  });

  it("error: anything else opens no join screen", () => {
    for (const hash of [
      "",
      "#",
      "#/join/",
      "#/join/a/b",
      "#/joins/abc",
      "#join/abc",
      "#/join/a%20b",
    ]) {
      expect(joinTokenOf(hash), hash).toBeNull();
    }
    expect(joinTokenOf(`#/join/${"a".repeat(65)}`)).toBeNull();
  });
});
