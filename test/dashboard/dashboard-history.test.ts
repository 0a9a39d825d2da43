import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANY_VERSION } from "../support/admin-client.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

// A blog's history in the editor (admin.yaml, "History"; dashboard/README.md, "History"): the
// revisions newest first with who did what and when (the viewer's time zone, with its offset),
// a comparison of any two (fields, and a line diff of the body), and Restore, a new version on
// top (pending changes on a released blog). In headless Chromium against the real server, at
// 1280×800 and 390×844.

interface Blog {
  id: string;
  title: string;
  status: string;
  bodyMarkdown: string;
  version: string;
  pendingChanges: boolean;
}

let s: DashboardSession;
let page: Page;
let secret = "";

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-history" });
  page = s.page;
  page.setDefaultTimeout(10_000);
  const minted = await s.owner.post<{ secret: string }>(`/workspaces/${s.ws}/keys`, {
    name: "History test reader",
  });
  secret = minted.body.secret;
});
afterEach(async () => {
  await s.setViewport("desktop");
  await s.assertNoProblems();
});
afterAll(async () => {
  await s?.close();
});

const FIRST_BODY = ["# Notes", "", "The first paragraph.", "", "The end."].join("\n");
const LATER_BODY = ["# Notes", "", "A rewritten paragraph.", "", "The end."].join("\n");

let made = 0;
/** A blog with three revisions: created, then its title, then its body saved. */
async function blogWithHistory(released = false): Promise<Blog> {
  made++;
  const blogs = `/workspaces/${s.ws}/blogs`;
  const created = await s.owner.post<Blog>(blogs, {
    title: `Early title ${made}`,
    bodyMarkdown: FIRST_BODY,
  });
  expect(created.status).toBe(201);
  const id = created.body.id;
  await s.owner.patch(`${blogs}/${id}`, { title: `Later title ${made}` }, ANY_VERSION);
  const last = await s.owner.patch<Blog>(
    `${blogs}/${id}`,
    { bodyMarkdown: LATER_BODY },
    ANY_VERSION,
  );
  if (!released) return last.body;
  return (await s.owner.post<Blog>(`${blogs}/${id}/release`, undefined, ANY_VERSION)).body;
}

const stored = async (id: string) =>
  (await s.owner.get<Blog>(`/workspaces/${s.ws}/blogs/${id}`)).body;

async function openEditor(blog: Blog): Promise<void> {
  await page.goto(s.url(`/w/${s.ws}/blogs/${blog.id}`));
  await page.getByRole("heading", { name: "Edit blog" }).waitFor();
  await expect.poll(() => page.getByLabel("Title", { exact: true }).inputValue()).toBe(blog.title);
}

const history = () => page.getByRole("dialog", { name: "History" });
const revisions = () => history().getByRole("list", { name: "Revisions, newest first" });
const item = (n: number) => revisions().getByRole("listitem").nth(n).getByRole("button");
const restoreButton = () => history().getByRole("button", { name: "Restore this version" });
const stateLine = () => page.locator(".editor-bar").getByRole("status");

async function openHistory(): Promise<void> {
  await page.getByRole("button", { name: "History", exact: true }).click();
  await history().waitFor();
  await expect.poll(() => revisions().getByRole("listitem").count()).toBeGreaterThan(0);
}

const WIDTHS: ViewportName[] = ["desktop", "phone"];

describe.each(WIDTHS)("at %s width", (width) => {
  it("lists every save newest first, with who and when (with the UTC offset), and what changed", async () => {
    await s.setViewport(width);
    const blog = await blogWithHistory();
    await openEditor(blog);
    await openHistory();
    await expect(revisions().getByRole("listitem").count()).resolves.toBe(3);
    const texts = await revisions().getByRole("listitem").allInnerTexts();
    expect(texts[0]).toMatch(/^Saved\n/);
    expect(texts[0]).toContain("Changed: Excerpt, Body");
    expect(texts[1]).toContain("Changed: Title");
    expect(texts[2]).toMatch(/^Created\n/);
    for (const text of texts) {
      expect(text).toContain("Fern Owner");
      expect(text).toMatch(/GMT|UTC/);
    }
    // The newest is selected and compared with the one before it: the body's lines differ.
    await expect(item(0).getAttribute("aria-pressed")).resolves.toBe("true");
    const diff = history().locator("table.conflict-body");
    await diff.getByText("A rewritten paragraph.").waitFor();
    await expect(diff.locator("del").allInnerTexts()).resolves.toEqual([
      expect.stringContaining("The first paragraph."),
    ]);
    // What the blog says now: nothing to restore.
    await expect(restoreButton().isDisabled()).resolves.toBe(true);
    await history().getByText("This is what the blog says now.").waitFor();
    await history().getByRole("button", { name: "Close" }).click();
    await expect.poll(() => history().count()).toBe(0);
  });

  it("any two compare: fields that differ side by side, the body as a line diff", async () => {
    await s.setViewport(width);
    const blog = await blogWithHistory();
    await openEditor(blog);
    await openHistory();
    // The title's save, against the one before it (created): only the title differs.
    await item(1).click();
    const fields = history().locator("table.conflict-fields");
    const titleRow = fields.getByRole("row", { name: /Title/ });
    await titleRow.waitFor();
    await expect(titleRow.innerText()).resolves.toMatch(
      new RegExp(`Early title ${made}\\s+Later title ${made}`),
    );
    await expect(history().locator("table.conflict-body").count()).resolves.toBe(0);
    // Against the blog now: the body's rewritten line, and no title row.
    await history().getByLabel("Compare with").selectOption("now");
    await history().locator("table.conflict-body").getByText("A rewritten paragraph.").waitFor();
    await expect(titleRow.count()).resolves.toBe(0);
    await history().getByRole("button", { name: "Close" }).click();
  });

  it("Restore saves the old content as a new version on top, and the form shows it", async () => {
    await s.setViewport(width);
    const blog = await blogWithHistory();
    await openEditor(blog);
    await openHistory();
    await item(2).click();
    await restoreButton().click();
    await expect.poll(() => history().count()).toBe(0);
    await stateLine()
      .getByText(/^Restored the version of /)
      .waitFor();
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe(
      `Early title ${made}`,
    );
    const now = await stored(blog.id);
    expect(now).toMatchObject({ title: `Early title ${made}`, bodyMarkdown: FIRST_BODY });
    await openHistory();
    await expect(revisions().getByRole("listitem").count()).resolves.toBe(4);
    await expect(item(0).innerText()).resolves.toMatch(/^Restored\n/);
    await history().getByRole("button", { name: "Close" }).click();
  });

  it("on a released blog the restore is pending: consumers still read the released version", async () => {
    await s.setViewport(width);
    const blog = await blogWithHistory(true);
    await openEditor(blog);
    await openHistory();
    await item(3).click(); // Created
    await restoreButton().click();
    await stateLine()
      .getByText(/as pending changes/)
      .waitFor();
    await page.locator(".editor-bar").getByText("Changes pending", { exact: true }).waitFor();
    const res = await fetch(`${s.server.url}/api/consumer/blogs/${blog.id}`, {
      headers: { "x-api-key": secret },
    });
    expect(((await res.json()) as Blog).title).toBe(blog.title);
    expect(await stored(blog.id)).toMatchObject({
      pendingChanges: true,
      title: `Early title ${made}`,
    });
  });
});

describe("unsaved changes and other writers", () => {
  it("with unsaved changes Restore waits for a save, and says so", async () => {
    const blog = await blogWithHistory();
    await openEditor(blog);
    await page.getByLabel("Excerpt").fill("Typed, not saved");
    await openHistory();
    await item(2).click();
    await history().getByText("Save or discard your unsaved changes to restore.").waitFor();
    await expect(restoreButton().isDisabled()).resolves.toBe(true);
    await history().getByRole("button", { name: "Close" }).click();
    await expect(page.getByLabel("Excerpt").inputValue()).resolves.toBe("Typed, not saved");
    await page.getByLabel("Excerpt").fill("");
  });

  it("a restore after someone else's save is refused (412) and shows their version, nothing lost", async () => {
    const blog = await blogWithHistory();
    await openEditor(blog);
    await openHistory();
    await item(2).click();
    await s.owner.patch(`/workspaces/${s.ws}/blogs/${blog.id}`, { title: "Theirs" }, ANY_VERSION);
    s.expectProblems(new RegExp(`/blogs/${blog.id}/revisions/rev_[A-Za-z0-9]+/restore$`));
    await restoreButton().click();
    await stateLine()
      .getByText(/^Not restored: someone else changed this blog/)
      .waitFor();
    await expect(history().count()).resolves.toBe(0);
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe("Theirs");
    expect((await stored(blog.id)).title).toBe("Theirs");
  });
});

describe("screens", () => {
  it("the history dialog passes axe at both widths", async () => {
    const blog = await blogWithHistory();
    await openEditor(blog);
    await openHistory();
    await item(2).click();
    await history().locator("table.conflict-fields").waitFor();
    await s.checkScreen("history-dialog");
  });
});
