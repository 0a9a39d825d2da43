// The delivery log (dashboard/README.md, "How it is put together": a delivery log among the
// loads; admin.yaml, listWebhookDeliveries, whose deliveries name their blog by id only, and
// listAdminBlogs), in Chromium against a delivering server and a real receiver, at 1280×800 and
// at 390×844: each blog is named by its title, looked up in one request of the blog list by
// last change; a state and an event filter narrow the deliveries; and the log refreshes itself
// while open, a new event showing with no click. Each state is held to axe.
import type { Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  LOG_REFRESH_MS,
  type Log,
  withFreshFirstPage,
} from "../../dashboard/src/features/webhooks/delivery-log.js";
import type { components } from "../../openapi/generated/admin.js";
import { ANY_VERSION } from "../support/admin-client.js";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";
import { type Receiver, startReceiver, waitFor } from "../support/webhook-receiver.js";

type Delivery = components["schemas"]["WebhookDelivery"];
type Endpoint = components["schemas"]["WebhookEndpointWithSecret"];

describe("a refresh of the log's first page keeps the older pages “Load more” brought", () => {
  const d = (n: number) => ({ id: `dlv_${n}` }) as Delivery;
  const log = (ns: number[], nextCursor: string | null): Log => ({
    deliveries: ns.map(d),
    nextCursor,
  });
  const ids = (l: Log) => l.deliveries.map((x) => x.id.slice(4)).join(" ");

  it("new deliveries on top, the older pages after them, with their cursor", () => {
    const merged = withFreshFirstPage(log([5, 4, 3, 2, 1], "after-1"), log([7, 6, 5], "after-5"));
    expect([ids(merged), merged.nextCursor]).toEqual(["7 6 5 4 3 2 1", "after-1"]);
  });

  it("only the first page shown, or nothing older: the fresh page as it is", () => {
    expect(withFreshFirstPage(log([5, 4], "after-4"), log([6, 5, 4], "after-4"))).toEqual(
      log([6, 5, 4], "after-4"),
    );
    expect(withFreshFirstPage(log([5, 4, 3], null), log([6, 5], null))).toEqual(log([6, 5], null));
  });

  it("more new deliveries than a page holds: the log starts again from the fresh page", () => {
    expect(withFreshFirstPage(log([3, 2, 1], "after-1"), log([9, 8, 7], "after-7"))).toEqual(
      log([9, 8, 7], "after-7"),
    );
  });
});

describe.each(["desktop", "phone"] as const)("the delivery log at %s width", (width) => {
  let s: DashboardSession;
  let page: Page;
  let receiver: Receiver;
  let endpointId = "";
  /** The blog lists the page asked for (each title lookup is one). */
  const blogLists: string[] = [];

  const blog = async (title: string) => {
    const made = await s.owner.post<{ id: string }>(`/workspaces/${s.ws}/blogs`, { title });
    expect(made.status).toBe(201);
    return made.body.id;
  };
  const act = async (id: string, action: "release" | "unrelease") => {
    const res = await s.owner.post(
      `/workspaces/${s.ws}/blogs/${id}/${action}`,
      undefined,
      ANY_VERSION,
    );
    expect(res.status).toBe(200);
  };
  const deliveries = async () =>
    (
      await s.owner.get<{ data: Delivery[] }>(
        `/workspaces/${s.ws}/webhooks/${endpointId}/deliveries`,
      )
    ).body.data;

  beforeAll(async () => {
    s = await openDashboardSession({
      shots: "dashboard-delivery-log",
      viewport: width,
      env: { WEBHOOK_ALLOW_HTTP_LOOPBACK: "true" },
    });
    page = s.page;
    page.setDefaultTimeout(10_000);
    // Releases are answered 204 (delivered); an unrelease 500, so it stays pending, retried.
    receiver = await startReceiver((r) =>
      JSON.parse(r.body).type === "blog.unreleased" ? 500 : 204,
    );
    const made = await s.owner.post<Endpoint>(`/workspaces/${s.ws}/webhooks`, {
      url: receiver.url,
      events: ["blog.released", "blog.updated", "blog.unreleased", "blog.removed"],
    });
    expect(made.status).toBe(201);
    endpointId = made.body.endpoint.id;
    const spring = await blog("Spring issue");
    const autumn = await blog("Autumn issue");
    await act(spring, "release");
    await act(autumn, "release");
    await act(autumn, "unrelease");
    await waitFor("three deliveries settled", async () => {
      const states = (await deliveries()).map((d) => `${d.eventType} ${d.state}`).sort();
      return (
        states.join() ===
          "blog.released delivered,blog.released delivered,blog.unreleased pending" &&
        (await deliveries()).every((d) => d.attempts.length > 0)
      );
    });
    page.on("request", (r: Request) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith("/blogs") && r.method() === "GET") blogLists.push(url.search);
    });
  }, 60_000);
  afterEach(async () => {
    await s.assertNoProblems();
  });
  afterAll(async () => {
    await s?.close();
  });

  const items = () => page.locator(".delivery");
  const blogsNamed = () => items().locator(".delivery-facts a").allTextContents();
  const badges = () => items().locator(".delivery-head .badge").allTextContents();

  it("each delivery names its blog by title, found in one request of the blogs by last change", async () => {
    await page.goto(s.url(`/w/${s.ws}/webhooks/${endpointId}`));
    await page.getByRole("heading", { name: "Deliveries", exact: true }).waitFor();
    await expect.poll(blogsNamed).toEqual(["Autumn issue", "Autumn issue", "Spring issue"]);
    expect(blogLists).toEqual(["?sort=updated&limit=100"]);
    const link = page.getByRole("link", { name: "Spring issue" });
    await expect(link.getAttribute("href")).resolves.toMatch(/\/blogs\/b_[A-Za-z0-9]+$/);
    await s.checkScreen(`${width}-log-titles`);
  });

  it("the state and event filters narrow the deliveries shown", async () => {
    const state = page.getByLabel("State");
    const event = page.getByLabel("Event");
    await state.selectOption({ label: "Delivered" });
    await expect.poll(badges).toEqual(["Delivered", "Delivered"]);
    await state.selectOption({ label: "Pending" });
    await expect.poll(badges).toEqual(["Pending"]);
    await expect.poll(blogsNamed).toEqual(["Autumn issue"]);
    await state.selectOption({ label: "Failed" });
    await page.getByText("None of the 3 deliveries loaded match.").waitFor();
    await expect(items().count()).resolves.toBe(0);
    if (width === "desktop") await s.checkScreen("log-filtered-empty");
    await state.selectOption({ label: "All states" });
    await event.selectOption({ label: "blog.released" });
    await expect.poll(blogsNamed).toEqual(["Autumn issue", "Spring issue"]);
    await event.selectOption({ label: "All events" });
    await expect.poll(() => items().count()).toBe(3);
  });

  it("the open log refreshes itself: a new event shows, with its blog's title, with no click", async () => {
    const winter = await blog("Winter issue");
    await act(winter, "release");
    await expect
      .poll(() => items().first().locator(".delivery-facts a").textContent(), {
        timeout: LOG_REFRESH_MS * 2,
      })
      .toBe("Winter issue");
    // One more lookup, for the one blog not looked up before.
    expect(blogLists).toEqual(["?sort=updated&limit=100", "?sort=updated&limit=100"]);
    await expect.poll(() => items().count()).toBe(4);
  }, 40_000);
});
