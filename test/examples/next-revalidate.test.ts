// The Next.js recipe (examples/next-revalidate/README.md): the example built with `next build`
// and run with `next start`, its pages caching Pressroom data under tags, and a real server's
// signed webhook deliveries reaching its route handler through a gate that can hold them, so
// each test sees the page before a delivery (cached, stale) and after it (revalidated).
import { Webhook } from "standardwebhooks";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { buildNextExample, type NextSite, startNextExample } from "../support/next-example.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import {
  deliveryHeaders,
  type Passed,
  startWebhookGate,
  type WebhookGate,
} from "../support/webhook-gate.js";
import { waitFor } from "../support/webhook-receiver.js";
import { ALL_EVENTS, blogApi } from "../webhooks/support.js";

type Me = components["schemas"]["Me"];
type MintedKey = components["schemas"]["MintedKey"];
type CreatedEndpoint = { secret: string; endpoint: { id: string } };

const ROUTE = "/api/pressroom-webhook";

let t: TestDb;
let server: TestServer;
let admin: AdminClient;
let ws: string;
let apiKey: string;
let secret: string;
let endpointId: string;
let gate: WebhookGate;
let site: NextSite;

beforeAll(async () => {
  const built = buildNextExample(); // the longest step: alongside the server's start
  t = await useTestDb();
  server = await startTestServer(t.db, { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" });
  admin = new AdminClient(server.url);
  const me = await admin.post<Me>("/setup", OWNER);
  expect(me.status).toBe(201);
  ws = me.body.workspaces[0]?.id as string;
  apiKey = (await admin.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Next site" })).body
    .secret;
  // The endpoint as an owner adds it in the dashboard (README.md, "Webhooks"), at the gate.
  gate = await startWebhookGate(ROUTE);
  const created = await admin.post<CreatedEndpoint>(`/workspaces/${ws}/webhooks`, {
    url: gate.url,
    description: "Next.js site",
    events: ALL_EVENTS,
  });
  expect(created.status).toBe(201);
  ({ secret } = created.body);
  endpointId = created.body.endpoint.id;
  await built;
  site = await startNextExample({
    PRESSROOM_BASE_URL: server.url,
    PRESSROOM_API_KEY: apiKey,
    PRESSROOM_WEBHOOK_SECRET: secret,
  });
  gate.targetOrigin = site.url;
});

// A test that failed while holding deliveries must not hold back the next one's.
afterEach(() => gate.open());

const blogs = () => blogApi(admin, ws);

/** A page of the Next site: its status and HTML. */
async function page(path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(`${site.url}${path}`);
  return { status: res.status, html: await res.text() };
}

/** What the consumer API itself says now (the truth the site's cache lags behind). */
async function apiBlog(id: string): Promise<{ status: number; slug?: string; title?: string }> {
  const res = await fetch(`${server.url}/api/consumer/blogs/${id}`, {
    headers: { "x-api-key": apiKey },
  });
  return { status: res.status, ...((await res.json()) as { slug?: string; title?: string }) };
}

const isFor = (d: Passed, type: string, blogId: string) =>
  d.event.type === type && d.event.data.blogId === blogId;

/** The delivery of `type` for `blogId`, once the gate holds it (Pressroom has sent it). */
async function held(type: string, blogId: string): Promise<Passed> {
  await waitFor(`${type} of ${blogId} at the gate`, () =>
    gate.deliveries.some((d) => isFor(d, type, blogId)),
  );
  return gate.deliveries.find((d) => isFor(d, type, blogId)) as Passed;
}

/** The delivery of `type` for `blogId`, once the site has answered it. */
async function answered(type: string, blogId: string): Promise<Passed> {
  await waitFor(`the site's answer to ${type} of ${blogId}`, () =>
    gate.deliveries.some((d) => isFor(d, type, blogId) && d.answer !== undefined),
  );
  return gate.deliveries.find((d) => isFor(d, type, blogId) && d.answer !== undefined) as Passed;
}

/** A released blog whose page and the list the site has cached; returns its id and slug. */
async function releasedAndCached(title: string): Promise<{ id: string; slug: string }> {
  const id = await blogs().create(title, true);
  expect((await answered("blog.released", id)).answer?.status).toBe(200);
  const { slug } = await apiBlog(id);
  expect((await page(`/blogs/${slug}`)).html).toContain(title);
  expect((await page("/")).html).toContain(title);
  return { id, slug: slug as string };
}

const revalidatedFor = (id: string) => ({
  status: 200,
  body: expect.objectContaining({ revalidated: [`pressroom:blog:${id}`, "pressroom:blogs"] }),
});

describe("happy: a signed delivery revalidates the blog's and the list's tags (examples/next-revalidate/README.md)", () => {
  it("blog.updated: the blog's page and the list keep the cached title until the delivery reaches the route, then show the new one", async () => {
    const { id, slug } = await releasedAndCached("Harbour lights");
    gate.hold();
    await blogs().edit(id, "Harbour lights at dusk");
    await held("blog.updated", id);
    expect((await apiBlog(id)).title).toBe("Harbour lights at dusk");
    // Served from Next's Data Cache: the API already has the new title, the site not yet.
    for (const path of [`/blogs/${slug}`, "/"]) {
      const before = await page(path);
      expect(before.html).toContain("Harbour lights");
      expect(before.html).not.toContain("Harbour lights at dusk");
    }
    await gate.open();
    expect((await answered("blog.updated", id)).answer).toEqual(revalidatedFor(id));
    expect((await page(`/blogs/${slug}`)).html).toContain("Harbour lights at dusk");
    expect((await page("/")).html).toContain("Harbour lights at dusk");
  });

  it("blog.released: a new blog shows in the cached list; blog.unreleased and blog.removed: its page is 404 and the list drops it at the next request", async () => {
    const { slug: otherSlug } = await releasedAndCached("Tide tables");
    gate.hold();
    const id = await blogs().create("Lantern festival", true);
    await held("blog.released", id);
    expect((await page("/")).html).not.toContain("Lantern festival"); // the cached list
    await gate.open();
    expect((await answered("blog.released", id)).answer).toEqual(revalidatedFor(id));
    expect((await page("/")).html).toContain("Lantern festival");
    const { slug } = await apiBlog(id);
    expect((await page(`/blogs/${slug}`)).html).toContain("Lantern festival");

    gate.hold();
    await blogs().unrelease(id);
    await held("blog.unreleased", id);
    expect((await apiBlog(id)).status).toBe(404);
    expect((await page(`/blogs/${slug}`)).html).toContain("Lantern festival"); // still cached
    await gate.open();
    expect((await answered("blog.unreleased", id)).answer).toEqual(revalidatedFor(id));
    expect((await page(`/blogs/${slug}`)).status).toBe(404);
    expect((await page("/")).html).not.toContain("Lantern festival");

    await blogs().release(id);
    await waitFor("the second release answered", () => {
      const answeredReleases = gate.deliveries.filter(
        (d) => isFor(d, "blog.released", id) && d.answer?.status === 200,
      );
      return new Set(answeredReleases.map((d) => d.event.id)).size === 2;
    });
    expect((await page(`/blogs/${slug}`)).html).toContain("Lantern festival");
    await blogs().remove(id);
    expect((await answered("blog.removed", id)).answer).toEqual(revalidatedFor(id));
    expect((await page(`/blogs/${slug}`)).status).toBe(404);
    expect((await page("/")).html).not.toContain("Lantern festival");
    expect((await page(`/blogs/${otherSlug}`)).html).toContain("Tide tables");
  });
});

describe("hostile: only Pressroom's signature revalidates (examples/next-revalidate/README.md)", () => {
  it("a delivery with its body altered, signed by another secret, or unsigned gets 400 and revalidates nothing", async () => {
    const { id, slug } = await releasedAndCached("Quiet harbour");
    gate.hold();
    await blogs().edit(id, "Quiet harbour, rewritten");
    const real = await held("blog.updated", id);
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${site.url}${ROUTE}`, { method: "POST", headers, body });
    const signed = deliveryHeaders(real);
    const { "webhook-id": msgId = "", "webhook-timestamp": ts = "" } = signed;
    const altered = real.body.replace("blog.updated", "blog.removed");
    const foreign = new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).sign(
      msgId,
      new Date(Number(ts) * 1000),
      real.body,
    );
    const attempts = [
      post(signed, altered),
      post({ ...signed, "webhook-signature": foreign }, real.body),
      post({ "content-type": "application/json" }, real.body),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: expect.any(String) });
    }
    // Nothing was revalidated: the page still shows the cached title the API no longer has.
    expect((await apiBlog(id)).title).toBe("Quiet harbour, rewritten");
    expect((await page(`/blogs/${slug}`)).html).not.toContain("Quiet harbour, rewritten");
    await gate.open();
    expect((await answered("blog.updated", id)).answer).toEqual(revalidatedFor(id));
    expect((await page(`/blogs/${slug}`)).html).toContain("Quiet harbour, rewritten");
  });
});

describe("happy: at least once (examples/next-revalidate/README.md)", () => {
  it("the same signed delivery arriving again is answered 200 with the same tags; a test event revalidates nothing", async () => {
    const { id } = await releasedAndCached("Second delivery");
    const first = await answered("blog.released", id);
    for (let i = 0; i < 2; i++) {
      const again = await fetch(`${site.url}${ROUTE}`, {
        method: "POST",
        headers: deliveryHeaders(first),
        body: first.body,
      });
      expect({ status: again.status, body: await again.json() }).toEqual(first.answer);
    }
    const sent = await admin.post(`/workspaces/${ws}/webhooks/${endpointId}/test`, undefined);
    expect(sent.status).toBeLessThan(300);
    await waitFor("the test event answered", () =>
      gate.deliveries.some((d) => d.event.type === "webhook.test" && d.answer !== undefined),
    );
    const test = gate.deliveries.find((d) => d.event.type === "webhook.test");
    expect(test?.answer).toEqual({
      status: 200,
      body: { id: test?.event.id, type: "webhook.test", revalidated: [] },
    });
  });
});

describe("happy: quiet (examples/next-revalidate/README.md)", () => {
  it("the site served every request of this file without logging an error or a warning", () => {
    const logged = site.output.join("").split("\n");
    const beyondStart = logged.filter(
      (line) => line.trim() !== "" && !/Next\.js|Local:|Network:|Ready in|next\.config/.test(line),
    );
    expect(beyondStart).toEqual([]);
  });
});
