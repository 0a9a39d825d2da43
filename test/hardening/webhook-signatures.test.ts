import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, WebhookVerificationError } from "../../sdk/src/index.js";

/**
 * Forged and replayed deliveries are rejected by the SDK's `verifyWebhook` (sdk/README.md,
 * "Webhooks"; openapi/openapi.yaml, "## Webhooks": Standard Webhooks signatures, timestamps
 * within 5 minutes). Each case starts from a delivery the reference library (`standardwebhooks`)
 * signed, which verifies, and changes one thing.
 */

const SECRET = `whsec_${Buffer.from("the endpoint's real 32-byte key!").toString("base64")}`;
const OTHER_SECRET = `whsec_${Buffer.from("somebody else's 32-byte key!!!!!").toString("base64")}`;
const BODY = JSON.stringify({
  id: "evt_1",
  type: "blog.removed",
  occurredAt: "2026-11-25T10:00:00.000Z",
  workspaceId: "ws_1",
  data: { blogId: "b_1", slug: "hello" },
});
const NOW = new Date("2026-11-25T10:00:00Z");

function delivery(options: { secret?: string; at?: Date; id?: string; body?: string } = {}) {
  const at = options.at ?? NOW;
  const id = options.id ?? "evt_1";
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(options.secret ?? SECRET).sign(id, at, options.body ?? BODY),
  };
}

async function rejection(
  headers: Readonly<Record<string, string | readonly string[]>>,
  body: string = BODY,
): Promise<unknown> {
  return verifyWebhook(SECRET, headers, body, { now: NOW }).then(
    () => "verified",
    (e: unknown) => e,
  );
}

describe("security: forged deliveries are rejected", () => {
  it("the untouched delivery verifies (the baseline every case changes)", async () => {
    await expect(verifyWebhook(SECRET, delivery(), BODY, { now: NOW })).resolves.toMatchObject({
      id: "evt_1",
    });
  });

  it.each([
    ["signed with another secret", () => [delivery({ secret: OTHER_SECRET }), BODY] as const],
    ["a body changed after signing", () => [delivery(), BODY.replace("hello", "hellp")] as const],
    ["a body with a space added", () => [delivery(), `${BODY} `] as const],
    [
      "another event's id under this signature",
      () => [{ ...delivery(), "webhook-id": "evt_2" }, BODY] as const,
    ],
    [
      "a timestamp moved while keeping the signature",
      () =>
        [{ ...delivery(), "webhook-timestamp": String(NOW.getTime() / 1000 + 1) }, BODY] as const,
    ],
    [
      "a made-up signature",
      () => [{ ...delivery(), "webhook-signature": "v1,dawfeoifkpqwoekfpqoekf" }, BODY] as const,
    ],
    ["an empty v1 signature", () => [{ ...delivery(), "webhook-signature": "v1," }, BODY] as const],
    [
      "a truncated signature",
      () =>
        [
          { ...delivery(), "webhook-signature": delivery()["webhook-signature"].slice(0, 20) },
          BODY,
        ] as const,
    ],
    [
      "the right signature under another version",
      () =>
        [
          {
            ...delivery(),
            "webhook-signature": delivery()["webhook-signature"].replace("v1,", "v2,"),
          },
          BODY,
        ] as const,
    ],
    [
      "the signature's bytes without the v1, prefix",
      () =>
        [
          { ...delivery(), "webhook-signature": delivery()["webhook-signature"].slice(3) },
          BODY,
        ] as const,
    ],
    [
      "two webhook-id headers",
      () => [{ ...delivery(), "webhook-id": ["evt_1", "evt_2"] }, BODY] as const,
    ],
  ])("%s is rejected", async (_name, make) => {
    const [headers, body] = make();
    const error = await rejection(headers, body);
    expect(error).toBeInstanceOf(WebhookVerificationError);
  });

  it("several signatures none of which matches are rejected; one that matches among them passes", async () => {
    const forged = delivery({ secret: OTHER_SECRET })["webhook-signature"];
    const real = delivery()["webhook-signature"];
    expect(
      await rejection({ ...delivery(), "webhook-signature": `${forged} ${forged}` }),
    ).toBeInstanceOf(WebhookVerificationError);
    expect(await rejection({ ...delivery(), "webhook-signature": `${forged} ${real}` })).toBe(
      "verified",
    );
  });
});

describe("security: replayed and future-dated deliveries are rejected", () => {
  it("a genuine delivery replayed more than 5 minutes later is rejected as too old", async () => {
    const headers = delivery({ at: new Date(NOW.getTime() - 301_000) });
    const error = await rejection(headers);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(String(error)).toMatch(/too old \(301 s ago/);
  });

  it("a delivery dated more than 5 minutes ahead is rejected as from the future", async () => {
    const headers = delivery({ at: new Date(NOW.getTime() + 301_000) });
    const error = await rejection(headers);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(String(error)).toMatch(/too far in the future \(301 s ahead/);
  });

  it("a tighter tolerance rejects sooner", async () => {
    const headers = delivery({ at: new Date(NOW.getTime() - 61_000) });
    await expect(
      verifyWebhook(SECRET, headers, BODY, { now: NOW, toleranceSeconds: 60 }),
    ).rejects.toThrow(WebhookVerificationError);
  });
});
