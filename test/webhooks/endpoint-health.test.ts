// An endpoint's health as several instances record it (README, "Webhooks": failing
// endpoints are disabled; admin.yaml `WebhookEndpoint.failingSince`).
import { beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import { endpointHealth } from "../../server/src/webhooks/endpoint-health.js";
import type { SendOutcome } from "../../server/src/webhooks/safe-send.js";
import { type TestDb, useTestDb } from "../support/test-db.js";

let t: TestDb;
beforeAll(async () => {
  t = await useTestDb();
});

const failure: SendOutcome = {
  ok: false,
  statusCode: 503,
  latencyMs: 5,
  responseExcerpt: null,
  error: null,
};

describe("happy: failingSince is null once an endpoint has succeeded after its last failure (admin.yaml, WebhookEndpoint.failingSince)", () => {
  it("a success seen by one instance clears a failure another instance recorded a moment after that instance's previous success, though successes are written at most every 5 s", async () => {
    const c = collections(t.db);
    let clock = Date.parse("2026-11-25T10:00:00Z");
    const now = () => clock;
    const disabled: string[] = [];
    const endpoints = { disable: async (id: string) => void disabled.push(id) };
    const a = endpointHealth(c, endpoints, now);
    const b = endpointHealth(c, endpoints, now);
    const id = "we_HealthTwoInstances";

    await a.succeeded(id);
    clock += 1000;
    await b.failed(id, failure);
    expect((await c.webhookHealth.findOne({ _id: id }))?.failingSince).not.toBeNull();
    clock += 2000; // within A's 5 s: its lastSuccessAt-only write waits, the clearing does not
    await a.succeeded(id);
    expect((await c.webhookHealth.findOne({ _id: id }))?.failingSince).toBeNull();

    // Days later, one failure alone does not disable it: the failures start from that one.
    clock += 3 * 86_400_000;
    expect(await b.failed(id, failure)).toBe(false);
    expect(disabled).toEqual([]);
  });
});
