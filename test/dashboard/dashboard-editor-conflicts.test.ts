import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ANY_VERSION } from "../support/admin-client.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

// Two writers, one blog (admin.yaml "Conditional writes"; dashboard/README.md, "The editor"):
// every write the editor makes names the version it was made on, so a blog someone else changed
// meanwhile is never overwritten in silence. In headless Chromium against the real server, at
// 1280×800 and 390×844: the conflict dialog and its three ways on, refused releases and
// removals, the question before leaving unsaved changes, and typed text kept in the browser.

interface Blog {
  id: string;
  slug: string;
  title: string;
  status: string;
  excerpt: string;
  bodyMarkdown: string;
  version: string;
}

let s: DashboardSession;
let page: Page;

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-editor-conflicts" });
  page = s.page;
  page.setDefaultTimeout(10_000);
});
afterEach(async () => {
  await s.setViewport("desktop");
  await s.assertNoProblems();
});
afterAll(async () => {
  await s?.close();
});

const BODY = ["# Notes", "", "First paragraph.", "", "Second paragraph.", ""].join("\n");

let made = 0;
async function makeBlog(released = false): Promise<Blog> {
  made++;
  const res = await s.owner.post<Blog>(`/workspaces/${s.ws}/blogs`, {
    title: `Shared blog ${made}`,
    bodyMarkdown: BODY,
  });
  expect(res.status).toBe(201);
  if (!released) return res.body;
  const moved = await s.owner.post<Blog>(
    `/workspaces/${s.ws}/blogs/${res.body.id}/release`,
    undefined,
    ANY_VERSION,
  );
  expect(moved.status).toBe(200);
  return moved.body;
}

/** Someone else's save, through the admin API (`If-Match: *`: it applies to any version). */
async function theyEdit(blog: Blog, patch: Partial<Blog>): Promise<Blog> {
  const res = await s.owner.patch<Blog>(`/workspaces/${s.ws}/blogs/${blog.id}`, patch, ANY_VERSION);
  expect(res.status).toBe(200);
  return res.body;
}

const stored = async (id: string) =>
  (await s.owner.get<Blog>(`/workspaces/${s.ws}/blogs/${id}`)).body;

async function openEditor(blog: Blog): Promise<void> {
  await page.goto(s.url(`/w/${s.ws}/blogs/${blog.id}`));
  await page.getByRole("heading", { name: "Edit blog" }).waitFor();
  await expect.poll(() => page.getByLabel("Title", { exact: true }).inputValue()).toBe(blog.title);
}

const bar = () => page.locator(".editor-bar");
const stateLine = () => bar().getByRole("status");
const button = (name: string) => bar().getByRole("button", { name, exact: true });
const conflictDialog = () => page.getByRole("dialog", { name: "Someone else changed this blog" });
const body = () => page.getByLabel("Body (Markdown)");

/** The refused write shows in the page's log as a 412: declared, so the suite accepts it. */
const expectStale = (method: string, id: string, tail = "") =>
  s.expectProblems(
    new RegExp(`^response 412 ${method} .*/blogs/${id}${tail}$`),
    /^console\.error Failed to load resource: .*412/,
  );

const WIDTHS: ViewportName[] = ["desktop", "phone"];

describe.each(WIDTHS)("at %s width", (width) => {
  it("a save over someone else's newer save saves nothing and shows both versions side by side", async () => {
    await s.setViewport(width);
    const blog = await makeBlog();
    await openEditor(blog);
    const theirs = await theyEdit(blog, {
      title: `${blog.title}, retitled`,
      bodyMarkdown: BODY.replace("Second paragraph.", "Their second paragraph."),
    });
    await page.getByLabel("Excerpt").fill("My excerpt");
    await body().fill(BODY.replace("Second paragraph.", "My second paragraph."));
    await button("Save").click();
    const shown = conflictDialog();
    await shown.waitFor();
    expectStale("PATCH", blog.id);
    // Nothing was written over theirs.
    await expect(stored(blog.id)).resolves.toMatchObject({
      version: theirs.version,
      bodyMarkdown: theirs.bodyMarkdown,
    });
    await shown.getByText("Your changes were not saved").waitFor();
    await shown.getByText("Their changes to Title are kept whichever you choose.").waitFor();
    const excerptRow = shown.getByRole("row", { name: /^Excerpt/ });
    await expect(excerptRow.getByRole("cell").allTextContents()).resolves.toEqual([
      "First paragraph.",
      "My excerpt",
    ]);
    const diff = shown.getByRole("table", { name: "Body" });
    await diff.locator("del", { hasText: "Their second paragraph." }).waitFor();
    await diff.locator("ins", { hasText: "My second paragraph." }).waitFor();
    await expect(diff.locator("del").first().textContent()).resolves.toBe(
      "Theirs only: Their second paragraph.",
    );
    // Escape is no way out: the writer chooses.
    await page.keyboard.press("Escape");
    await expect(shown.isVisible()).resolves.toBe(true);

    await shown.getByRole("button", { name: "Keep mine (save on top)" }).click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect(conflictDialog().count()).resolves.toBe(0);
    await expect(stored(blog.id)).resolves.toMatchObject({
      title: theirs.title,
      excerpt: "My excerpt",
      bodyMarkdown: BODY.replace("Second paragraph.", "My second paragraph."),
    });
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe(
      theirs.title,
    );
  });

  it("“Take theirs” shows their version in the form and saves nothing of the writer's", async () => {
    await s.setViewport(width);
    const blog = await makeBlog(true);
    await openEditor(blog);
    const theirs = await theyEdit(blog, { bodyMarkdown: "Their whole new body.\n" });
    await body().fill("My whole new body.\n");
    await button("Save changes").click();
    await conflictDialog().getByText("It is released now.", { exact: false }).waitFor();
    expectStale("PATCH", blog.id);
    await conflictDialog().getByRole("button", { name: "Take theirs" }).click();
    await stateLine().getByText("Their version is shown now; yours was not saved.").waitFor();
    await expect(body().inputValue()).resolves.toBe("Their whole new body.\n");
    await expect(stored(blog.id)).resolves.toMatchObject({
      version: theirs.version,
      bodyMarkdown: "Their whole new body.\n",
    });
  });
});

describe("the conflict dialog", () => {
  it("“Copy mine” puts the writer's version on the clipboard; refused, it is shown selected for Ctrl+C", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    await theyEdit(blog, { bodyMarkdown: "Theirs.\n" });
    await page.getByLabel("Excerpt").fill("Mine, too");
    await body().fill("Mine.\n");
    await button("Save").click();
    await conflictDialog().waitFor();
    expectStale("PATCH", blog.id);
    await conflictDialog().getByRole("button", { name: "Copy mine" }).click();
    await conflictDialog().getByText("Your version is on the clipboard.").waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      "Excerpt: Mine, too\n\nMine.\n",
    );
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new Error("refused"));
    });
    await conflictDialog().getByRole("button", { name: "Copy mine" }).click();
    const box = conflictDialog().getByRole("textbox", { name: "Your version, to copy" });
    await box.waitFor();
    await expect(box.inputValue()).resolves.toBe("Excerpt: Mine, too\n\nMine.\n");
    await expect
      .poll(() => box.evaluate((el: HTMLTextAreaElement) => el.selectionEnd - el.selectionStart))
      .toBe("Excerpt: Mine, too\n\nMine.\n".length);
    await conflictDialog().getByRole("button", { name: "Take theirs" }).click();
  });

  it("“Keep mine” that meets a still newer version asks again, against that one", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    await theyEdit(blog, { excerpt: "First other excerpt" });
    await page.getByLabel("Excerpt").fill("My excerpt");
    await button("Save").click();
    await conflictDialog().waitFor();
    const newest = await theyEdit(blog, { excerpt: "Second other excerpt" });
    await conflictDialog().getByRole("button", { name: "Keep mine (save on top)" }).click();
    await conflictDialog()
      .getByRole("row", { name: /^Excerpt/ })
      .getByText("Second other excerpt")
      .waitFor();
    expectStale("PATCH", blog.id);
    await expect(stored(blog.id)).resolves.toMatchObject({ version: newest.version });
    await conflictDialog().getByRole("button", { name: "Keep mine (save on top)" }).click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect(stored(blog.id)).resolves.toMatchObject({ excerpt: "My excerpt" });
  });

  it("the same change made by both is no conflict: their version is taken, nothing asked", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    await theyEdit(blog, { excerpt: "Agreed excerpt" });
    await page.getByLabel("Excerpt").fill("Agreed excerpt");
    await button("Save").click();
    await stateLine().getByText("Someone else had saved the same changes").waitFor();
    expectStale("PATCH", blog.id);
    await expect(conflictDialog().count()).resolves.toBe(0);
    await expect(page.getByLabel("Excerpt").inputValue()).resolves.toBe("Agreed excerpt");
  });
});

describe("releases, unreleases and removals of a version someone else changed", () => {
  it("Release of a changed draft is refused; their version is shown and the writer told", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    const theirs = await theyEdit(blog, { title: `${blog.title} (theirs)` });
    await button("Release").click();
    await page.getByRole("dialog").getByRole("button", { name: "Release" }).click();
    await stateLine()
      .getByText(/^Not released: someone else changed this blog/)
      .waitFor();
    expectStale("POST", blog.id, "/release");
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe(
      theirs.title,
    );
    await expect(stored(blog.id)).resolves.toMatchObject({ status: "draft" });
    // Asked again, on the version now shown, it is done.
    await button("Release").click();
    await page.getByRole("dialog").getByRole("button", { name: "Release" }).click();
    await stateLine().getByText("Released: consumers can read it now.").waitFor();
  });

  it("Remove of a changed blog is refused the same way; the blog stays", async () => {
    const blog = await makeBlog(true);
    await openEditor(blog);
    await theyEdit(blog, { excerpt: "Still wanted" });
    await button("Remove").click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove blog" }).click();
    await stateLine()
      .getByText(/^Not removed: someone else changed this blog/)
      .waitFor();
    expectStale("DELETE", blog.id);
    await expect(page.getByLabel("Excerpt").inputValue()).resolves.toBe("Still wanted");
    await expect(stored(blog.id)).resolves.toMatchObject({ status: "released" });
  });

  it("Unrelease with unsaved changes of a changed blog opens the conflict dialog", async () => {
    const blog = await makeBlog(true);
    await openEditor(blog);
    await theyEdit(blog, { bodyMarkdown: "Theirs.\n" });
    await body().fill("Mine.\n");
    await button("Unrelease").click();
    await page.getByRole("dialog").getByRole("button", { name: "Unrelease" }).click();
    await conflictDialog().getByText("It was not unreleased").waitFor();
    expectStale("POST", blog.id, "/unrelease");
    await expect(stored(blog.id)).resolves.toMatchObject({ status: "released" });
    await conflictDialog().getByRole("button", { name: "Take theirs" }).click();
  });
});

describe.each(WIDTHS)("leaving unsaved changes at %s width", (width) => {
  const leaveDialog = () => page.getByRole("dialog", { name: "Leave without saving?" });

  it("“← All blogs” asks first: Stay keeps the text, Leave goes", async () => {
    await s.setViewport(width);
    const blog = await makeBlog();
    await openEditor(blog);
    await page.getByLabel("Excerpt").fill("Not saved yet");
    await page.getByRole("link", { name: "← All blogs" }).click();
    await leaveDialog().waitFor();
    await leaveDialog().getByRole("button", { name: "Stay" }).click();
    await expect(page.getByLabel("Excerpt").inputValue()).resolves.toBe("Not saved yet");
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`/blogs/${blog.id}$`));
    await page.getByRole("link", { name: "← All blogs" }).click();
    await leaveDialog().getByRole("button", { name: "Leave without saving" }).click();
    await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
    await expect(stored(blog.id)).resolves.not.toMatchObject({ excerpt: "Not saved yet" });
  });

  it("the browser's Back asks first; Stay keeps the editor at its address, Leave goes back", async () => {
    await s.setViewport(width);
    const blog = await makeBlog();
    await page.goto(s.url(`/w/${s.ws}/blogs`));
    await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
    await page.getByRole("link", { name: blog.title }).first().click();
    await expect
      .poll(() => page.getByLabel("Title", { exact: true }).inputValue())
      .toBe(blog.title);
    await body().fill("Typed, not saved.");
    await page.goBack();
    await leaveDialog().waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(new RegExp(`/blogs/${blog.id}$`));
    await leaveDialog().getByRole("button", { name: "Stay" }).click();
    await expect(body().inputValue()).resolves.toBe("Typed, not saved.");
    await page.goBack();
    await leaveDialog().getByRole("button", { name: "Leave without saving" }).click();
    await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/blogs$/);
    // Forward again reaches the editor, with nothing to ask about.
    await page.goForward();
    await expect
      .poll(() => page.getByLabel("Title", { exact: true }).inputValue())
      .toBe(blog.title);
  });

  it("a fragment link (Skip to content) adds a history entry without upsetting the question on Back", async () => {
    await s.setViewport(width);
    const blog = await makeBlog();
    await page.goto(s.url(`/w/${s.ws}/blogs`));
    await page.getByRole("link", { name: blog.title }).first().click();
    await expect
      .poll(() => page.getByLabel("Title", { exact: true }).inputValue())
      .toBe(blog.title);
    await body().fill("Typed before skipping.");
    await page.keyboard.press("Tab"); // out of the body: the skip link is the page's first stop
    await page.getByRole("link", { name: "Skip to content" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => new URL(page.url()).hash).toBe("#main");
    await page.goBack(); // to the editor without the fragment: the same screen, nothing asked
    await expect.poll(() => new URL(page.url()).hash).toBe("");
    await expect(leaveDialog().count()).resolves.toBe(0);
    await page.goBack();
    await leaveDialog().getByRole("button", { name: "Leave without saving" }).click();
    await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/blogs$/);
  });

  it("with nothing unsaved, links leave at once", async () => {
    await s.setViewport(width);
    const blog = await makeBlog();
    await openEditor(blog);
    await page.getByRole("link", { name: "← All blogs" }).click();
    await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
    await expect(leaveDialog().count()).resolves.toBe(0);
  });
});

describe("text kept in this browser", () => {
  const restoreDialog = () => page.getByRole("dialog", { name: "Restore unsaved changes?" });
  /** The copy the editor keeps for a blog (null: a new one) of the signed-in owner. */
  const keptCopy = (blogId: string | null) =>
    page.evaluate(
      ([ws, id]) => {
        const key = Object.keys(localStorage).find((k) => k.endsWith(`:${ws}:${id}`));
        return key === undefined ? null : localStorage.getItem(key);
      },
      [s.ws, blogId ?? "new"],
    );
  /** A reload the browser asks about (unsaved changes): the question is answered “Leave”. */
  async function reloadLeaving(): Promise<void> {
    page.once("dialog", (question) => void question.accept());
    await page.reload();
  }

  it("text typed and never saved is offered back after a reload; Restore puts it in the form", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    await page.getByLabel("Excerpt").fill("Typed before the reload");
    await body().fill("A body typed before the reload.\n");
    await expect.poll(() => keptCopy(blog.id)).toContain("typed before the reload");
    await reloadLeaving();
    await restoreDialog().waitFor();
    await expect(page.getByLabel("Excerpt").inputValue()).resolves.toBe("First paragraph.");
    await restoreDialog().getByRole("button", { name: "Restore" }).click();
    await expect(page.getByLabel("Excerpt").inputValue()).resolves.toBe("Typed before the reload");
    await expect(body().inputValue()).resolves.toBe("A body typed before the reload.\n");
    await stateLine().getByText("Unsaved changes.").waitFor();
    await button("Save").click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect.poll(() => keptCopy(blog.id)).toBeNull();
    await expect(stored(blog.id)).resolves.toMatchObject({ excerpt: "Typed before the reload" });
  });

  it("“Discard them” forgets the kept text: the next opening asks nothing", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    await page.getByLabel("Excerpt").fill("Soon discarded");
    await expect.poll(() => keptCopy(blog.id)).toContain("Soon discarded");
    await reloadLeaving();
    await restoreDialog().getByRole("button", { name: "Discard them" }).click();
    await expect(page.getByLabel("Excerpt").inputValue()).resolves.toBe("First paragraph.");
    await expect(keptCopy(blog.id)).resolves.toBeNull();
    await openEditor(blog);
    await expect(restoreDialog().count()).resolves.toBe(0);
  });

  it("text kept after a crash of the tab is offered back in another one", async () => {
    const blog = await makeBlog();
    const other = await s.browser.newPage();
    await other.goto(s.url(`/w/${s.ws}/blogs/${blog.id}`));
    await expect
      .poll(() => other.getByLabel("Title", { exact: true }).inputValue())
      .toBe(blog.title);
    await other.getByLabel("Excerpt").fill("Typed in the tab that crashed");
    await expect
      .poll(() => other.evaluate(() => Object.values({ ...localStorage }).join("\n")))
      .toContain("Typed in the tab that crashed");
    const cdp = await s.browser.newCDPSession(other);
    const crashed = other.waitForEvent("crash");
    void cdp.send("Page.crash").catch(() => {}); // never answered: the renderer is gone
    await crashed;
    await other.close();
    await openEditor(blog);
    await restoreDialog().getByRole("button", { name: "Restore" }).click();
    await expect(page.getByLabel("Excerpt").inputValue()).resolves.toBe(
      "Typed in the tab that crashed",
    );
    await button("Save").click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
  });

  it("kept text typed on a version someone else has changed since opens the conflict dialog", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    await body().fill(BODY.replace("First paragraph.", "My first paragraph."));
    await expect.poll(() => keptCopy(blog.id)).toContain("My first paragraph.");
    await reloadLeaving();
    await restoreDialog().waitFor(); // the page has loaded what it loads: nothing is cut short
    const theirs = await theyEdit(blog, { title: "Their title" });
    await openEditor(theirs);
    await restoreDialog().getByRole("button", { name: "Restore" }).click();
    await conflictDialog()
      .getByText("Your restored changes were typed on the version before it")
      .waitFor();
    await conflictDialog()
      .getByText("Their changes to Title are kept whichever you choose.")
      .waitFor();
    await conflictDialog().getByRole("button", { name: "Keep mine (save on top)" }).click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect(stored(blog.id)).resolves.toMatchObject({
      title: "Their title",
      bodyMarkdown: BODY.replace("First paragraph.", "My first paragraph."),
    });
  });

  it("a new blog's text is offered on the next “New blog”, and forgotten once it is created", async () => {
    await page.goto(s.url(`/w/${s.ws}/blogs/new`));
    await page.getByLabel("Title", { exact: true }).fill("Kept before it existed");
    await expect.poll(() => keptCopy(null)).toContain("Kept before it existed");
    await reloadLeaving();
    await restoreDialog().getByRole("button", { name: "Restore" }).click();
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe(
      "Kept before it existed",
    );
    await button("Save draft").click();
    await page.getByRole("heading", { name: "Edit blog" }).waitFor();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect.poll(() => keptCopy(null)).toBeNull();
  });

  it("kept text stays kept while its question is open: a reload before answering asks again", async () => {
    await page.goto(s.url(`/w/${s.ws}/blogs/new`));
    await page.getByLabel("Title", { exact: true }).fill("Asked about twice");
    await expect.poll(() => keptCopy(null)).toContain("Asked about twice");
    await reloadLeaving();
    await restoreDialog().waitFor();
    await expect(keptCopy(null)).resolves.toContain("Asked about twice");
    await page.reload();
    await restoreDialog().getByRole("button", { name: "Discard them" }).click();
    await expect(keptCopy(null)).resolves.toBeNull();
  });

  it("leaving a new blog while its first save is on the way stays where the writer went", async () => {
    await page.goto(s.url(`/w/${s.ws}/blogs/new`));
    await page.getByLabel("Title", { exact: true }).fill("Saved after I left");
    // The create takes a while: the writer leaves before it answers.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const create = `**/api/admin/workspaces/${s.ws}/blogs`;
    await page.route(create, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      await held;
      return route.continue();
    });
    try {
      await button("Save draft").click();
      await page.getByRole("link", { name: "← All blogs" }).click();
      await page.getByRole("button", { name: "Leave without saving" }).click();
      await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
      const answered = page.waitForResponse(
        (res) =>
          res.url().endsWith(`/workspaces/${s.ws}/blogs`) && res.request().method() === "POST",
      );
      release();
      expect((await answered).status()).toBe(201);
      // The save finished (the blog exists); what the editor does with its answer takes
      // milliseconds: half a second on, the list is still on screen, at its address.
      await page.waitForTimeout(500);
      expect(new URL(page.url()).pathname).toBe(`/dashboard/w/${s.ws}/blogs`);
      await expect(page.getByRole("heading", { name: "Blogs", exact: true }).count()).resolves.toBe(
        1,
      );
    } finally {
      await page.unroute(create);
    }
  });

  it("“Leave without saving” forgets the kept text", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    await page.getByLabel("Excerpt").fill("Left behind");
    await expect.poll(() => keptCopy(blog.id)).toContain("Left behind");
    await page.getByRole("link", { name: "← All blogs" }).click();
    await page.getByRole("button", { name: "Leave without saving" }).click();
    await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
    await expect(keptCopy(blog.id)).resolves.toBeNull();
  });
});

describe("screens", () => {
  it("the conflict dialog and the leave question pass axe at both widths", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    await theyEdit(blog, {
      title: "A title they chose",
      bodyMarkdown: [BODY, ...Array.from({ length: 12 }, (_, i) => `Line ${i}`)].join("\n"),
    });
    await page.getByLabel("Slug").fill("my-own-slug");
    await body().fill(`${BODY}\nA line of mine at the end.\n`);
    await button("Save").click();
    await conflictDialog().waitFor();
    expectStale("PATCH", blog.id);
    await s.checkScreen("conflict-dialog");
    await conflictDialog().getByRole("button", { name: "Take theirs" }).click();
    await page.getByLabel("Excerpt").fill("Unsaved");
    await page.getByRole("link", { name: "← All blogs" }).click();
    await page.getByRole("dialog", { name: "Leave without saving?" }).waitFor();
    await s.checkScreen("leave-dialog");
    await page.getByRole("button", { name: "Stay" }).click();
    await expect.poll(() => page.evaluate(() => localStorage.length)).toBeGreaterThan(0);
    page.once("dialog", (question) => void question.accept());
    await page.reload();
    await page.getByRole("dialog", { name: "Restore unsaved changes?" }).waitFor();
    await s.checkScreen("restore-dialog");
    await page.getByRole("button", { name: "Discard them" }).click();
  });
});
