// The Blogs screen's paging and tag chips (dashboard/README.md, `features/blogs/blogs.tsx`: the
// list "one page at a time", filter, search and sort "all three in the address"), in Chromium
// against the real server, at 1280×800 and at 390×844: "Load more" keeps the keyboard focus —
// on the button while it remains, then on the first row of the last page, never on <body> — and
// says how many came, even when pressed in the very task that showed the first page; a tag chip
// is a link to the list searched for that tag (admin.yaml, listAdminBlogs: no tag filter, so it
// is the search `q`), with the focus on the search box.
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";

/** Three pages of the list's 20: 20, 20 and 5. */
const COUNT = 45;
const titleOf = (n: number) => `Issue ${String(n).padStart(2, "0")}`;

let s: DashboardSession;
let page: Page;

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-blog-list-more" });
  page = s.page;
  page.setDefaultTimeout(10_000);
  for (let n = 1; n <= COUNT; n++) {
    const tags = n === 3 ? ["changelog"] : n === 44 ? ["changelog", "weekly"] : [];
    const made = await s.owner.post(`/workspaces/${s.ws}/blogs`, { title: titleOf(n), tags });
    expect(made.status).toBe(201);
    // Distinct creation times, so "Newest" has one order.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}, 120_000);
afterEach(async () => {
  await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  await s.assertNoProblems();
});
afterAll(() => s?.close());

const rows = () => page.getByRole("list", { name: "Blogs" }).locator(".blog-title");
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el === null || el === document.body ? "<body>" : `${el.tagName} ${el.textContent}`;
  });
const open = async (query = "") => {
  await page.goto(s.url(`/w/${s.ws}/blogs${query}`));
  await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
  await expect.poll(() => rows().count()).toBe(20);
};

describe.each(["desktop", "phone"] as const)("at the %s width", (width) => {
  beforeEach(() => s.setViewport(width));

  it("“Load more” keeps the focus on itself while it remains, then moves it to the first row of the last page, never to <body>", async () => {
    await open();
    const more = page.getByRole("button", { name: "Load more" });
    await more.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => rows().count()).toBe(40);
    await expect.poll(focused).toBe("BUTTON Load more");
    await page.getByRole("status").getByText("20 more blogs: 40 shown.").waitFor();
    if (width === "desktop") await s.checkScreen("blog-list-more");
    // Enter again, on the same button: the last page, after which there is no button.
    await page.keyboard.press("Enter");
    await expect.poll(() => rows().count()).toBe(COUNT);
    await expect(more.count()).resolves.toBe(0);
    // Newest first: the last page starts with the 5th blog written.
    await expect.poll(focused).toBe(`A ${titleOf(5)}`);
    await page.getByRole("status").getByText("5 more blogs: 45 shown.").waitFor();
    // Tab goes on from there: to that row's next link, not back to the top of the page.
    await page.keyboard.press("Tab");
    await expect.poll(focused).toBe(`A ${titleOf(4)}`);
  });

  it("“Load more” pressed as soon as the first page shows still says how many came and keeps the focus (before the page's effects run)", async () => {
    await open();
    // A click in the same task as the render that shows a list's first page, before Preact's
    // after-paint effects of that render have run (a quick reader, a slow machine). Those
    // effects must not take the click's page for the one they saw.
    const clicked = page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const observer = new MutationObserver(() => {
            const list = document.querySelector('ul[aria-label="Blogs"]');
            const button = [...document.querySelectorAll("button")].find(
              (b) => b.textContent === "Load more",
            );
            if (list?.querySelectorAll(".blog-title").length !== 20 || !button) return;
            observer.disconnect();
            button.focus();
            button.click();
            resolve();
          });
          observer.observe(document.body, { childList: true, subtree: true });
        }),
    );
    await page.getByLabel("Sort").selectOption("oldest");
    await clicked;
    await expect.poll(() => rows().count()).toBe(40);
    await page.getByRole("status").getByText("20 more blogs: 40 shown.").waitFor();
    await expect.poll(focused).toBe("BUTTON Load more");
    // The last page: the focus goes to its first row (oldest first: the 41st blog written).
    await page.keyboard.press("Enter");
    await expect.poll(() => rows().count()).toBe(COUNT);
    await expect.poll(focused).toBe(`A ${titleOf(41)}`);
  });

  it("a tag chip is a link to the list searched for the tag; the focus goes to the search box, which holds it", async () => {
    await open();
    const chip = page.getByRole("link", { name: "Search for tag changelog" });
    await expect(chip.count()).resolves.toBe(1); // the newest page holds one of the two
    const chipSize = await chip.boundingBox();
    expect(chipSize?.height ?? 0, "a target of 24 px at least").toBeGreaterThanOrEqual(24);
    await chip.click();
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("changelog");
    await expect.poll(() => rows().allTextContents()).toEqual([titleOf(44), titleOf(3)]);
    const search = page.getByRole("searchbox", { name: "Search blogs" });
    await expect(search.inputValue()).resolves.toBe("changelog");
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole("radio", { name: "All, 2" }).waitFor();
    if (width === "desktop") await s.checkScreen("blog-list-tag");
    // A link: Back returns to the whole list.
    await page.goBack();
    await expect.poll(() => rows().count()).toBe(20);
    await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBeNull();
  });
});
