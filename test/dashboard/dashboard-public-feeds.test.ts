// Public feeds on the keys screen (openapi.yaml, "Feeds"; admin.yaml, setPublicFeeds,
// turnOffPublicFeeds and renewPublicFeedId; dashboard/README.md, API keys, "Public feeds"): the
// owner turns them on with a link template and gets four addresses, which a plain fetch with no
// key reads; a template without {slug} is refused on its field; new addresses and turning off
// are asked first and withdraw the old addresses at once; a member sees the feeds and cannot
// change them; the activity says each change. In headless Chromium against the real server,
// at 1280×800 and 390×844, axe clean.
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkLinkTemplate } from "../../dashboard/src/features/keys/feed-link-template.js";
import { adminLimits } from "../../openapi/generated/admin-limits.js";
import { AdminClient, ANY_VERSION } from "../support/admin-client.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

interface Feeds {
  feedId: string;
  linkTemplate: string;
  urls: { rss: string; atom: string; json: string; sitemap: string };
}
interface Workspace {
  id: string;
  publicFeeds: Feeds | null;
}

let s: DashboardSession;
let page: Page;
let member: AdminClient;
let slug = "";

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-public-feeds" });
  page = s.page;
  page.setDefaultTimeout(10_000);
  const made = await s.owner.post<{ id: string; slug: string }>(`/workspaces/${s.ws}/blogs`, {
    title: "Spring notes",
    bodyMarkdown: "What changed this spring.",
  });
  expect(made.status).toBe(201);
  slug = made.body.slug;
  const released = await s.owner.post(
    `/workspaces/${s.ws}/blogs/${made.body.id}/release`,
    undefined,
    ANY_VERSION,
  );
  expect(released.status).toBe(200);
  // A writer: invited as a member, joined with a new account (its session in `member`).
  const invited = await s.owner.post<{ link: string }>(`/workspaces/${s.ws}/invitations`, {
    email: "mo@example.com",
    role: "member",
  });
  member = new AdminClient(s.server.url);
  const joined = await member.post("/invitations/accept", {
    token: invited.body.link.split("#/join/")[1] ?? "",
    name: "Mo Member",
    password: "mo's long enough password",
  });
  expect(joined.status).toBeLessThan(300);
});
afterEach(async () => {
  await signInAs(s.owner);
  await s.setViewport("desktop");
  await s.assertNoProblems();
});
afterAll(() => s?.close());

/**
 * The browser's session becomes `client`'s: its cookie replaces the one there in one step. (Not
 * cleared first: a request the page still had on the way in that moment went without a session,
 * and its 401 failed the test that had just ended.)
 */
async function signInAs(client: AdminClient): Promise<void> {
  const [name = "", value = ""] = (client.cookie ?? "").split("=");
  await s.browser.addCookies([{ name, value, url: s.server.url }]);
}
const feedsPath = () => `/workspaces/${s.ws}/public-feeds`;
async function feedsNow(): Promise<Feeds | null> {
  const me = await s.owner.get<{ workspaces: Workspace[] }>("/me");
  return me.body.workspaces.find((w) => w.id === s.ws)?.publicFeeds ?? null;
}
async function setFeeds(on: boolean): Promise<void> {
  const res = on
    ? await s.owner.call("PUT", feedsPath(), { linkTemplate: "https://example.com/b/{slug}" })
    : await s.owner.delete(feedsPath());
  expect(res.status).toBe(200);
}
async function openKeys(width: ViewportName): Promise<Locator> {
  await s.setViewport(width);
  await page.goto(s.url(`/w/${s.ws}/keys`));
  const card = page.getByRole("region", { name: "Public feeds" });
  await card.waitFor();
  return card;
}
const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? "");
const status = (url: string) => fetch(url).then((res) => res.status);

const WIDTHS: ViewportName[] = ["desktop", "phone"];

describe.each(WIDTHS)("at %s width", (width) => {
  it("turning feeds on with a link template gives four addresses; the RSS one answers with no key, linking each released blog by the template (openapi.yaml, Feeds)", async () => {
    await setFeeds(false);
    const card = await openKeys(width);
    const template = `https://example.com/${width}/blog/{slug}`;
    await card.getByLabel("Link template").fill(template);
    await card.getByRole("button", { name: "Turn on feeds" }).click();
    await page.getByText("Public feeds are on.").waitFor();
    await expect.poll(focusedText).toBe("Addresses");

    const saved = await feedsNow();
    expect(saved?.linkTemplate).toBe(template);
    const shown = {
      rss: await card.getByLabel("RSS feed").inputValue(),
      atom: await card.getByLabel("Atom feed").inputValue(),
      json: await card.getByLabel("JSON Feed").inputValue(),
      sitemap: await card.getByLabel("Sitemap").inputValue(),
    };
    expect(shown).toEqual(saved?.urls);

    const res = await fetch(shown.rss);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/xml/);
    const xml = await res.text();
    expect(xml).toContain("<rss");
    expect(xml).toContain("Spring notes");
    expect(xml).toContain(`<link>https://example.com/${width}/blog/${slug}</link>`);

    // The copy pattern of every value handed over: the address reaches the clipboard.
    await card.getByRole("button", { name: "Copy RSS feed" }).click();
    await card.getByRole("button", { name: "Copied RSS feed" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown.rss);
    await s.checkScreen(`feeds-on-${width}`);
  });

  it("a link template without {slug} is refused on its field and nothing changes (admin.yaml, FeedLinkTemplate)", async () => {
    await setFeeds(false);
    const card = await openKeys(width);
    const field = card.getByLabel("Link template");
    await field.fill("https://example.com/blog/");
    await card.getByRole("button", { name: "Turn on feeds" }).click();
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    const error = card.locator(".field-error");
    await expect.poll(() => error.textContent()).toContain("{slug}");
    const errorId = await error.getAttribute("id");
    expect((await field.getAttribute("aria-describedby"))?.split(" ")[0]).toBe(errorId);
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await field.inputValue()).toBe("https://example.com/blog/");
    expect(await feedsNow()).toBeNull();
    await s.checkScreen(`feeds-template-refused-${width}`);
  });

  it("the server's 400 about the template is said on its field, focused; what was typed stays (dashboard/README.md, Forms)", async () => {
    await setFeeds(false);
    const card = await openKeys(width);
    // The form checks what the server checks, so the refusal is provoked on the wire: the body
    // the page sends gets a template with credentials, which the server refuses.
    await page.route("**/api/admin/workspaces/*/public-feeds", (route) =>
      route.continue({
        postData: JSON.stringify({ linkTemplate: "https://ada:secret@example.com/{slug}" }),
      }),
    );
    s.expectProblems(/\b400\b.*\/public-feeds$/);
    const field = card.getByLabel("Link template");
    await field.fill("https://example.com/blog/{slug}");
    await card.getByRole("button", { name: "Turn on feeds" }).click();
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    await expect
      .poll(() => card.locator(".field-error").textContent())
      .toMatch(/user name or password/);
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await field.inputValue()).toBe("https://example.com/blog/{slug}");
    await page.unroute("**/api/admin/workspaces/*/public-feeds");
    expect(await feedsNow()).toBeNull();
  });

  it("the owner changes the link template: the feeds link by the new one (admin.yaml, setPublicFeeds)", async () => {
    await setFeeds(true);
    const before = await feedsNow();
    const card = await openKeys(width);
    await card.getByLabel("Link template").fill(`https://example.com/${width}/posts/{slug}`);
    await card.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved: the feeds link to the new template.").waitFor();
    await expect.poll(focusedText).toBe("Save");
    const after = await feedsNow();
    expect(after?.feedId).toBe(before?.feedId);
    const xml = await (await fetch(after?.urls.rss ?? "")).text();
    expect(xml).toContain(`<link>https://example.com/${width}/posts/${slug}</link>`);
  });

  it("Get new addresses asks first; then the old RSS address answers 404 and the new one 200 (openapi.yaml, Feeds: renew)", async () => {
    await setFeeds(true);
    const old = (await feedsNow())?.urls.rss ?? "";
    expect(await status(old)).toBe(200);
    const card = await openKeys(width);
    await card.getByRole("button", { name: "Get new addresses" }).click();
    const dialog = page.getByRole("dialog", { name: "Give the feeds new addresses?" });
    await dialog.waitFor();
    await s.checkScreen(`feeds-renew-confirm-${width}`);
    await dialog.getByRole("button", { name: "Get new addresses" }).click();
    await page.getByText("The feeds have new addresses: the old ones no longer work.").waitFor();
    await expect.poll(focusedText).toBe("Addresses");
    const renewed = await card.getByLabel("RSS feed").inputValue();
    expect(renewed).not.toBe(old);
    expect(await status(old)).toBe(404);
    expect(await status(renewed)).toBe(200);
  });

  it("Turn off feeds asks first; then the addresses answer 404 (openapi.yaml, Feeds: turned off)", async () => {
    await setFeeds(true);
    const urls = (await feedsNow())?.urls;
    const card = await openKeys(width);
    await card.getByRole("button", { name: "Turn off feeds" }).click();
    const dialog = page.getByRole("dialog", { name: "Turn off public feeds?" });
    await dialog.waitFor();
    // Cancel has the focus: Enter turns nothing off.
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    expect(await status(urls?.rss ?? "")).toBe(200);
    await card.getByRole("button", { name: "Turn off feeds" }).click();
    await dialog.getByRole("button", { name: "Turn off feeds" }).click();
    await page.getByText("Public feeds are off: their addresses no longer work.").waitFor();
    await expect.poll(focusedText).toBe("Public feeds");
    await card.getByRole("button", { name: "Turn on feeds" }).waitFor();
    expect(await feedsNow()).toBeNull();
    for (const url of Object.values(urls ?? {})) expect(await status(url)).toBe(404);
  });

  it("a member sees the feeds' addresses read-only, and the server refuses a member's change with 403 (README, Team: roles)", async () => {
    await setFeeds(true);
    const feeds = await feedsNow();
    await signInAs(member);
    const card = await openKeys(width);
    expect(await card.getByLabel("RSS feed").inputValue()).toBe(feeds?.urls.rss);
    await card.getByText("Only the workspace's owner can turn public feeds on").waitFor();
    expect(await card.getByLabel("Link template").count()).toBe(0);
    for (const name of ["Save", "Get new addresses", "Turn off feeds", "Turn on feeds"]) {
      expect(await card.getByRole("button", { name, exact: true }).count()).toBe(0);
    }
    await s.checkScreen(`feeds-member-${width}`);
    const put = await member.call("PUT", feedsPath(), {
      linkTemplate: "https://evil.example/{slug}",
    });
    expect(put.status).toBe(403);
    expect((await member.post(`${feedsPath()}/renew`)).status).toBe(403);
    expect((await member.delete(feedsPath())).status).toBe(403);
    expect(await feedsNow()).toEqual(feeds);
  });
});

describe("the activity", () => {
  it("says each change of the feeds in a sentence (dashboard/README.md, API keys)", async () => {
    const card = await openKeys("desktop");
    await card.waitFor();
    const activity = page.getByRole("region", { name: "Activity" });
    for (const sentence of [
      "Fern Owner turned on public feeds",
      "Fern Owner changed the feeds' link template",
      "Fern Owner gave the feeds new addresses",
      "Fern Owner turned off public feeds",
    ]) {
      await activity.getByText(sentence).first().waitFor();
    }
    await s.checkScreen("feeds-activity");
  });
});

describe("the form's own check of a link template", () => {
  const long = `https://example.com/${"a".repeat(adminLimits.setPublicFeeds.linkTemplate.maxLength)}/{slug}`;
  it.each([
    "https://example.com/blog/{slug}",
    "http://example.com/{id}/{slug}",
    "HTTPS://Example.com/posts/{slug}?ref=feed",
    "https://example.com/@team/{slug}",
    "https://example.com/blog/",
    "ftp://example.com/{slug}",
    "example.com/blog/{slug}",
    "https://ada:secret@example.com/{slug}",
    "https://ada@example.com/{slug}",
    "https://example.com/{slug}#top",
    "https://example.com/a b/{slug}",
    long,
  ])("agrees with the server's (admin.yaml, FeedLinkTemplate): %s", async (template) => {
    const res = await s.owner.call("PUT", feedsPath(), { linkTemplate: template });
    const problem = checkLinkTemplate(template);
    expect(res.status, `${problem ?? "accepted"} / server ${JSON.stringify(res.body)}`).toBe(
      problem === null ? 200 : 400,
    );
  });
});
