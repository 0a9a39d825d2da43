import type { Request, Route } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { adminQueryLimits } from "../../openapi/generated/admin-limits.js";
import { ANY_VERSION } from "../support/admin-client.js";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";

// The Blogs screen (dashboard/README.md), in Chromium against the real server: counts on
// the filters, the server-side search by title, slug and tag words, the sort, skeleton rows
// while a page loads, empty states with a next step, and “Try again” after a failed load; at
// 1280×800 and at 390×844.

type AdminBlog = components["schemas"]["AdminBlog"];

let s: DashboardSession;
/** A second workspace of the owner's with no blog at all. */
let emptyWs = "";
/** The seeded blogs' titles, in the order they were written. */
const WRITTEN = ["Release notes for June", "Café opening", "Weekly digest", "Zebra crossing"];

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-blog-list" });
  s.page.setDefaultTimeout(10_000);
  const seed: { title: string; slug?: string; tags?: string[]; released: boolean }[] = [
    { title: "Release notes for June", tags: ["changelog"], released: true },
    { title: "Café opening", slug: "grand-opening", released: false },
    { title: "Weekly digest", tags: ["release-notes"], released: false },
    { title: "Zebra crossing", released: true },
  ];
  for (const { released, ...blog } of seed) {
    const made = await s.owner.post<AdminBlog>(`/workspaces/${s.ws}/blogs`, blog);
    expect(made.status).toBe(201);
    if (released) {
      await s.owner.post(
        `/workspaces/${s.ws}/blogs/${made.body.id}/release`,
        undefined,
        ANY_VERSION,
      );
    }
    // Distinct creation times, so "Newest" and "Oldest" have one right order.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  emptyWs = (await s.owner.post<{ id: string }>("/workspaces", { name: "Empty desk" })).body.id;
}, 120_000);
afterEach(async () => {
  await settled();
  await s.assertNoProblems();
});
afterAll(() => s?.close());

const list = () => s.page.getByRole("list", { name: "Blogs" });
/** The titles the list shows, top to bottom. */
const shown = () => list().locator(".blog-title").allTextContents();
const search = () => s.page.getByRole("searchbox", { name: "Search blogs" });
const query = () => new URL(s.page.url()).searchParams;

/** The list and the counts (their own request) are in: nothing on the screen is busy. */
async function settled(): Promise<void> {
  await expect.poll(() => s.page.locator('[aria-busy="true"]').count()).toBe(0);
}

async function open(ws: string, params = ""): Promise<void> {
  await s.page.goto(s.url(`/w/${ws}/blogs${params}`));
  await s.page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
  await s.page.getByRole("radio", { name: /^All, \d+$/ }).waitFor();
  await settled();
}

/** The blog-counts requests the page sends from now on, until `stop()`. */
function countsRequests(): { urls: string[]; stop: () => void } {
  const urls: string[] = [];
  const seen = (request: Request) => {
    if (/\/blog-counts(\?|$)/.test(new URL(request.url()).pathname)) urls.push(request.url());
  };
  s.page.on("request", seen);
  return { urls, stop: () => s.page.off("request", seen) };
}

async function searchFor(text: string): Promise<void> {
  await search().fill(text);
  await expect.poll(() => query().get("q")).toBe(text);
  await settled();
}

describe.each(["desktop", "phone"] as const)("at the %s width", (width) => {
  beforeEach(() => s.setViewport(width));

  describe("happy", () => {
    it("each filter shows its count, read as “All, 4”", async () => {
      await open(s.ws);
      for (const name of ["All, 4", "Drafts, 2", "Released, 2"]) {
        await expect(s.page.getByRole("radio", { name }).count(), name).resolves.toBe(1);
      }
      await expect.poll(shown).toEqual([...WRITTEN].reverse());
      await s.checkScreen("blog-list");
    });

    it("search finds by a title word, a slug word and a tag word, and the counts follow", async () => {
      await open(s.ws);
      await searchFor("june");
      await expect.poll(shown).toEqual(["Release notes for June"]);
      await s.page.getByRole("radio", { name: "All, 1" }).waitFor();
      await s.page.getByRole("radio", { name: "Drafts, 0" }).waitFor();
      await searchFor("grand");
      await expect.poll(shown).toEqual(["Café opening"]);
      await searchFor("changel");
      await expect.poll(shown).toEqual(["Release notes for June"]);
      // Case, accents and every word as a prefix: "REL NOT" is the title and the tag.
      await searchFor("REL NOT");
      await expect.poll(shown).toEqual(["Weekly digest", "Release notes for June"]);
      await searchFor("cafe");
      await expect.poll(shown).toEqual(["Café opening"]);
      await s.page.getByRole("radio", { name: "All, 1" }).waitFor();
    });

    it("the search is in the URL: a reload shows the same list and box", async () => {
      await open(s.ws, "?q=zeb");
      await expect.poll(shown).toEqual(["Zebra crossing"]);
      await expect(search().inputValue()).resolves.toBe("zeb");
    });

    it("the sort changes the order and is kept in the URL", async () => {
      await open(s.ws);
      const sort = s.page.getByLabel("Sort");
      await sort.selectOption({ label: "Title A–Z" });
      await expect.poll(shown).toEqual([...WRITTEN].sort((a, b) => a.localeCompare(b)));
      expect(query().get("sort")).toBe("title");
      await sort.selectOption({ label: "Oldest" });
      await expect.poll(shown).toEqual(WRITTEN);
      await sort.selectOption({ label: "Newest" });
      await expect.poll(shown).toEqual([...WRITTEN].reverse());
      expect(query().get("sort")).toBeNull();
    });

    it("the counts depend on the search only: a filter or a sort change asks for none", async () => {
      await open(s.ws);
      const asked = countsRequests();
      await s.page.getByRole("radio", { name: "Released, 2" }).click();
      await expect.poll(shown).toEqual(["Zebra crossing", "Release notes for June"]);
      await s.page.getByLabel("Sort").selectOption({ label: "Oldest" });
      await expect.poll(shown).toEqual(["Release notes for June", "Zebra crossing"]);
      await settled();
      expect(asked.urls).toEqual([]);
      await s.page.getByRole("radio", { name: "Released, 2" }).waitFor();
      // A new search does ask, once.
      await searchFor("zeb");
      expect(asked.urls).toHaveLength(1);
      asked.stop();
    });

    it("the search box takes no more than the API does, and a longer link is cut, not refused", async () => {
      await open(s.ws);
      const max = adminQueryLimits.listAdminBlogs.q.maxLength;
      await expect(search().getAttribute("maxlength")).resolves.toBe(String(max));
      await search().fill(`zebra ${"x".repeat(max + 50)}`);
      await expect(search().inputValue()).resolves.toHaveLength(max);
      await expect.poll(() => query().get("q")?.length).toBe(max);
      await settled();
      await s.page.getByText(/^No blogs match/).waitFor();
      // An edited link with an over-long q: the list and counts ask for its first `max` only.
      const asked = countsRequests();
      await open(s.ws, `?q=zebra${encodeURIComponent(` ${"y".repeat(max + 50)}`)}`);
      expect(asked.urls.map((u) => new URL(u).searchParams.get("q")?.length)).toEqual([max]);
      asked.stop();
      await s.page.getByText(/^No blogs match/).waitFor();
    });

    it("a search that matches nothing says so, and “Clear search” brings the list back", async () => {
      await open(s.ws);
      await searchFor("zzz");
      await s.page.getByText("No blogs match “zzz”.").waitFor();
      await s.page.getByRole("radio", { name: "All, 0" }).waitFor();
      await s.checkScreen("blog-list-no-match");
      await s.page.getByRole("button", { name: "Clear search" }).click();
      await expect.poll(shown).toEqual([...WRITTEN].reverse());
      await expect(search().inputValue()).resolves.toBe("");
      expect(query().get("q")).toBeNull();
    });

    it("a workspace without blogs offers “Write your first blog”, which opens the editor", async () => {
      await open(emptyWs);
      await s.page.getByRole("radio", { name: "All, 0" }).waitFor();
      await expect(
        s.page.getByRole("link", { name: "Consumer API docs" }).getAttribute("href"),
      ).resolves.toBe("/docs");
      await s.page.getByText(/released blogs are what your apps read/i).waitFor();
      await s.checkScreen("blog-list-empty");
      await s.page.getByRole("link", { name: "Write your first blog" }).click();
      await expect.poll(() => new URL(s.page.url()).pathname).toMatch(/\/blogs\/new$/);
    });

    it("an empty filter says so and offers a way on: “Show all” from Released", async () => {
      await open(emptyWs, "?status=released");
      await s.page.getByText("Nothing released yet: consumers see an empty list.").waitFor();
      await s.page.getByRole("button", { name: "Show all" }).click();
      await s.page.getByRole("link", { name: "Write your first blog" }).waitFor();
      expect(query().get("status")).toBeNull();
      await settled();
      await open(emptyWs, "?status=draft");
      await s.page.getByText("No drafts.").waitFor();
      await s.page.getByRole("link", { name: "Write a blog" }).waitFor();
    });

    it("skeleton rows stand in while a slow page loads, hidden from screen readers", async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const hold = async (route: Route) => {
        await held;
        await route.fallback();
      };
      await s.page.route(/\/api\/admin\/workspaces\/[^/]+\/blogs\?/, hold);
      try {
        await s.page.goto(s.url(`/w/${s.ws}/blogs`));
        const busy = s.page.locator('.blogs-results[aria-busy="true"]');
        await busy.waitFor();
        await expect(busy.locator(".skeleton-row").count()).resolves.toBe(5);
        await expect(busy.locator('ul[aria-hidden="true"]').count()).resolves.toBe(1);
        await expect(
          s.page.getByRole("status").filter({ hasText: "Loading blogs…" }).count(),
        ).resolves.toBe(1);
        await expect(list().count()).resolves.toBe(0);
      } finally {
        release();
      }
      await expect.poll(shown).toEqual([...WRITTEN].reverse());
      await expect(s.page.locator(".skeleton-row").count()).resolves.toBe(0);
      await s.page.unroute(/\/api\/admin\/workspaces\/[^/]+\/blogs\?/, hold);
    });
  });

  describe("error", () => {
    it("a failed load shows the error with “Try again”, which loads the list", async () => {
      let failures = 1;
      const failOnce = async (route: Route) => {
        if (failures-- > 0) {
          await route.fulfill({ status: 500, json: { message: "The server had a problem." } });
        } else {
          await route.fallback();
        }
      };
      await s.page.route(/\/api\/admin\/workspaces\/[^/]+\/blogs\?/, failOnce);
      s.expectProblems(/response 500 GET .*\/blogs\?/, /console\.error .*500/);
      await s.page.goto(s.url(`/w/${s.ws}/blogs`));
      await s.page.getByRole("alert").getByText("The server had a problem.").waitFor();
      await settled();
      const asked = countsRequests();
      await s.page.getByRole("button", { name: "Try again" }).click();
      await expect.poll(shown).toEqual([...WRITTEN].reverse());
      // "Try again" refreshes the counts with the list.
      await settled();
      expect(asked.urls).toHaveLength(1);
      asked.stop();
      await expect(s.page.getByRole("alert").count()).resolves.toBe(0);
      await s.page.unroute(/\/api\/admin\/workspaces\/[^/]+\/blogs\?/, failOnce);
    });
  });
});
