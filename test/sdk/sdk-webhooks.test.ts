import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "../../sdk/src/index.js";

/**
 * `verifyWebhook(secret, headers, body)` (sdk/README.md, "Webhooks") verifies deliveries as the
 * Standard Webhooks specification says (openapi/openapi.yaml, "## Webhooks"): the spec's own
 * library vectors pass, and what the reference library (`standardwebhooks`) signs verifies.
 * Forgeries and replays: test/hardening/webhook-signatures.test.ts.
 */

// The reference library's test vector: standard-webhooks/standard-webhooks,
// libraries/javascript/src/webhook.test.ts ("sign function works", "multi sig payload is valid",
// "verification works with and without signature prefix").
const SPEC = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const specHeaders = (signature = SPEC.signature) => ({
  "webhook-id": SPEC.id,
  "webhook-timestamp": String(SPEC.timestamp),
  "webhook-signature": signature,
});
const atSpecTime = { now: SPEC.timestamp * 1000 };

const EVENT: WebhookEvent = {
  id: "evt_01JD7Z5X0000000000000000",
  type: "blog.released",
  occurredAt: "2026-11-25T10:00:00.000Z",
  workspaceId: "ws_0123456789abcdef",
  data: { blogId: "b_0123456789abcdef", slug: "hello-world" },
};
const SECRET = `whsec_${Buffer.from("a 32-byte secret for the tests!!").toString("base64")}`;

/** A delivery signed by the reference library, as the server sends it. */
function signed(body: string, secret = SECRET, at = new Date()) {
  const signature = new Webhook(secret).sign(EVENT.id, at, body);
  return {
    "webhook-id": EVENT.id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}

describe("happy: the Standard Webhooks vectors verify", () => {
  it("the reference library's signed vector verifies and its body is returned parsed", async () => {
    expect(await verifyWebhook(SPEC.secret, specHeaders(), SPEC.payload, atSpecTime)).toEqual({
      test: 2432232314,
    });
  });

  it("the secret works with and without its whsec_ prefix", async () => {
    const raw = SPEC.secret.slice("whsec_".length);
    await expect(verifyWebhook(raw, specHeaders(), SPEC.payload, atSpecTime)).resolves.toEqual({
      test: 2432232314,
    });
  });

  it("several signatures (other versions, stale ones) pass when one v1 signature matches", async () => {
    const sigs = [
      "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
      "v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
      SPEC.signature,
      "v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc=",
    ].join(" ");
    await expect(
      verifyWebhook(SPEC.secret, specHeaders(sigs), SPEC.payload, atSpecTime),
    ).resolves.toEqual({ test: 2432232314 });
  });

  it("the timestamp may be up to 5 minutes off either way by default, or toleranceSeconds", async () => {
    for (const offset of [-300, 300]) {
      const now = (SPEC.timestamp + offset) * 1000;
      await expect(
        verifyWebhook(SPEC.secret, specHeaders(), SPEC.payload, { now }),
      ).resolves.toBeTruthy();
    }
    const now = new Date((SPEC.timestamp + 3600) * 1000);
    await expect(
      verifyWebhook(SPEC.secret, specHeaders(), SPEC.payload, { now, toleranceSeconds: 3600 }),
    ).resolves.toBeTruthy();
  });
});

describe("happy: what the reference library signs verifies, typed as a WebhookEvent", () => {
  it("a string body and plain-object headers (Node, Express)", async () => {
    const body = JSON.stringify(EVENT);
    const event = await verifyWebhook(SECRET, signed(body), body);
    expect(event).toEqual(EVENT);
    if (event.type === "webhook.test") throw new Error("not a test event");
    expect(event.data.slug).toBe("hello-world");
  });

  it("a byte body (express.raw's Buffer, a Uint8Array) with non-ASCII text", async () => {
    const body = JSON.stringify({ ...EVENT, data: { ...EVENT.data, slug: "café-ünïcode" } });
    const headers = signed(body);
    await expect(verifyWebhook(SECRET, headers, Buffer.from(body))).resolves.toMatchObject({
      data: { slug: "café-ünïcode" },
    });
    await expect(
      verifyWebhook(SECRET, headers, new TextEncoder().encode(body)),
    ).resolves.toMatchObject({ id: EVENT.id });
  });

  it("a fetch Headers object, and plain headers in any case or as one-element arrays", async () => {
    const body = JSON.stringify(EVENT);
    const h = signed(body);
    await expect(verifyWebhook(SECRET, new Headers(h), body)).resolves.toEqual(EVENT);
    const shouting = {
      "Webhook-Id": h["webhook-id"],
      "WEBHOOK-TIMESTAMP": [h["webhook-timestamp"]],
      "webhook-Signature": h["webhook-signature"],
      other: undefined,
    };
    await expect(verifyWebhook(SECRET, shouting, body)).resolves.toEqual(EVENT);
  });

  it("a headers object of another fetch implementation (not an instance of this runtime's Headers) is read through its get()", async () => {
    const body = JSON.stringify(EVENT);
    const h: Record<string, string> = signed(body);
    // As undici's or node-fetch's Headers from another copy of the package: a class of its own.
    class OtherHeaders {
      get(name: string): string | null {
        return h[name.toLowerCase()] ?? null;
      }
    }
    const other = new OtherHeaders();
    expect(other instanceof Headers).toBe(false);
    await expect(verifyWebhook(SECRET, other, body)).resolves.toEqual(EVENT);
  });
});

describe("error: unusable deliveries and secrets say why", () => {
  const body = JSON.stringify(EVENT);

  it.each(["webhook-id", "webhook-timestamp", "webhook-signature"] as const)(
    "a delivery without %s is rejected",
    async (name) => {
      const headers: Record<string, string> = { ...signed(body) };
      delete headers[name];
      const error = await verifyWebhook(SECRET, headers, body).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error).toMatchObject({
        name: "WebhookVerificationError",
        message: `The delivery has no ${name} header.`,
      });
    },
  );

  it("a timestamp that is not a number is rejected", async () => {
    const headers = { ...signed(body), "webhook-timestamp": "hello" };
    await expect(verifyWebhook(SECRET, headers, body)).rejects.toThrow(/not a number/);
  });

  it("a signed body that is not a JSON object is rejected after the signature checks", async () => {
    for (const text of ["not json", "[1,2]", "null"]) {
      await expect(verifyWebhook(SECRET, signed(text), text)).rejects.toThrow(
        WebhookVerificationError,
      );
    }
  });

  it("an empty or non-base64 secret is a TypeError (a configuration mistake, not a bad delivery)", async () => {
    for (const secret of ["", "whsec_", "whsec_not base64!"]) {
      await expect(verifyWebhook(secret, signed(body), body)).rejects.toThrow(TypeError);
    }
  });
});
