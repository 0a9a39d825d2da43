import { describe, expect, it } from "vitest";
import { adminReachNote } from "../../server/src/main.js";

describe("the start-up note", () => {
  it("without PUBLIC_URL says the dashboard answers on loopback only and that PUBLIC_URL serves it elsewhere; a warning when listening beyond loopback", () => {
    const local = adminReachNote({ publicOrigin: undefined, host: "127.0.0.1" });
    expect(local.level).toBe("info");
    expect(local.msg).toMatch(/loopback/);
    expect(local.msg).toMatch(/PUBLIC_URL/);
    expect(adminReachNote({ publicOrigin: undefined, host: "0.0.0.0" }).level).toBe("warn");
    const set = adminReachNote({ publicOrigin: "https://press.example.com", host: "0.0.0.0" });
    expect(set).toEqual({
      level: "info",
      msg: "Dashboard and admin API: requests must come from https://press.example.com (PUBLIC_URL)",
    });
  });
});
