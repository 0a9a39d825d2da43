import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../dashboard/src/api.js";
import { checkDraft, fieldErrorOf } from "../../dashboard/src/features/blogs/blog-checks.js";
import { EMPTY_DRAFT } from "../../dashboard/src/features/blogs/blog-draft.js";
import { ANY_VERSION } from "../support/admin-client.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

// The blog editor (dashboard/README.md: `blog-editor.tsx`), in headless
// Chromium against the real server, at 1280×800 and 390×844: the sticky action bar, Ctrl/⌘+S,
// Write/Preview tabs on a phone, Tab order, deliberate Release/Unrelease/Remove, inline field
// errors and “Try again” after a failed save.

interface Blog {
  id: string;
  slug: string;
  title: string;
  status: string;
  bodyMarkdown: string;
}

let s: DashboardSession;
let page: Page;
let secret = "";

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-editor" });
  page = s.page;
  // A step that cannot happen fails naming its locator, well within the test's own timeout.
  page.setDefaultTimeout(10_000);
  const minted = await s.owner.post<{ secret: string }>(`/workspaces/${s.ws}/keys`, {
    name: "Editor test reader",
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

let made = 0;
/** A blog made through the admin API (released if asked), with a title unique to this file. */
async function makeBlog(released: boolean, bodyMarkdown = "Some *words*."): Promise<Blog> {
  made++;
  const res = await s.owner.post<Blog>(`/workspaces/${s.ws}/blogs`, {
    title: `Editor blog ${made}`,
    bodyMarkdown,
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

const adminBlog = async (id: string) =>
  (await s.owner.get<Blog>(`/workspaces/${s.ws}/blogs/${id}`)).body;

/** What a consumer with this workspace's key gets for a blog: its status code. */
async function consumerStatus(id: string): Promise<number> {
  const res = await fetch(`${s.server.url}/api/consumer/blogs/${id}`, {
    headers: { "x-api-key": secret },
  });
  await res.body?.cancel();
  return res.status;
}

async function openEditor(blog: Blog | null): Promise<void> {
  await page.goto(s.url(blog ? `/w/${s.ws}/blogs/${blog.id}` : `/w/${s.ws}/blogs/new`));
  await page.getByRole("heading", { name: blog ? "Edit blog" : "New blog" }).waitFor();
  if (blog)
    await expect
      .poll(() => page.getByLabel("Title", { exact: true }).inputValue())
      .toBe(blog.title);
}

const bar = () => page.locator(".editor-bar");
const stateLine = () => bar().getByRole("status");
const button = (name: string) => bar().getByRole("button", { name, exact: true });
const dialog = () => page.getByRole("dialog");
const saveShortcut = (mod: "Control" | "Meta") => page.keyboard.press(`${mod}+s`);
/** The same-origin admin path of a blog, as a pattern for `page.route` and `expectProblems`. */
const blogPath = (id: string) => new RegExp(`/api/admin/workspaces/${s.ws}/blogs/${id}$`);

const WIDTHS: ViewportName[] = ["desktop", "phone"];

describe.each(WIDTHS)("at %s width", (width) => {
  describe("happy", () => {
    it.each(["Control", "Meta"] as const)(
      "%s+S saves from any field, as Save does, and the browser's own save is kept away",
      async (mod) => {
        await s.setViewport(width);
        const blog = await makeBlog(false);
        await openEditor(blog);
        await stateLine().getByText("No unsaved changes.").waitFor();
        const excerpt = page.getByLabel("Excerpt");
        await excerpt.fill("Saved by the shortcut");
        await stateLine().getByText("Unsaved changes.").waitFor();
        // Seen by a listener after the editor's: a default not prevented is Chromium's save dialog.
        await page.evaluate(() => {
          const seen = (e: KeyboardEvent) => {
            if (e.key !== "s") return; // the modifier's own keydown comes first
            document.documentElement.dataset.savePrevented = String(e.defaultPrevented);
            removeEventListener("keydown", seen);
          };
          addEventListener("keydown", seen);
        });
        await saveShortcut(mod);
        await expect(
          page.evaluate(() => document.documentElement.dataset.savePrevented),
        ).resolves.toBe("true");
        await stateLine().getByText("Saved.", { exact: true }).waitFor();
        await expect(excerpt.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
        expect((await adminBlog(blog.id)).bodyMarkdown).toBe(blog.bodyMarkdown);
        await expect
          .poll(async () => (await adminBlog(blog.id)) as unknown)
          .toMatchObject({
            excerpt: "Saved by the shortcut",
          });
      },
    );

    it("the action bar stays in view after scrolling to the bottom of a long body", async () => {
      await s.setViewport(width);
      const body = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} of a long body.`);
      const blog = await makeBlog(false, body.join("\n\n"));
      await openEditor(blog);
      if (width === "phone") await page.getByRole("tab", { name: "Preview" }).click();
      await page.locator(".preview .prose p", { hasText: "Paragraph 120 " }).waitFor();
      await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
      await expect(page.evaluate(() => scrollY)).resolves.toBeGreaterThan(1000);
      const save = button("Save");
      const box = await save.boundingBox();
      const viewport = page.viewportSize();
      expect(box).not.toBeNull();
      expect(box && viewport && box.y >= 0 && box.y + box.height <= viewport.height).toBe(true);
      // Nothing lies over it: a tap there reaches Save.
      const onTop = await save.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      });
      expect(onTop).toBe(true);
      await expect(bar().getByText("Draft", { exact: true }).isVisible()).resolves.toBe(true);
    });

    it("Tab goes through the action bar in reading order, then on to the fields", async () => {
      await s.setViewport(width);
      const blog = await makeBlog(true);
      await openEditor(blog);
      await page.getByRole("link", { name: "← All blogs" }).focus();
      const seen: { name: string; x: number; y: number; h: number }[] = [];
      for (let i = 0; i < 7; i++) {
        await page.keyboard.press("Tab");
        const at = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          const r = el.getBoundingClientRect();
          const name = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
          return { name: name ?? el.textContent ?? "", x: r.x, y: r.y + scrollY, h: r.height };
        });
        seen.push(at);
        if (at.name === "Title") break;
      }
      expect(seen.map((f) => f.name)).toEqual([
        "Schedule",
        "History",
        "Remove",
        "Unrelease",
        "Save changes",
        "Title",
      ]);
      // Each focus comes after the one before in reading order: on a lower line, or further
      // right on the same line.
      for (let i = 1; i < seen.length; i++) {
        const [a, b] = [seen[i - 1], seen[i]];
        if (!a || !b) continue;
        const lower = b.y >= a.y + a.h / 2;
        const sameLineRight = Math.abs(b.y - a.y) < a.h / 2 && b.x > a.x;
        expect(lower || sameLineRight, `${b.name} after ${a.name}`).toBe(true);
      }
    });

    it("a released blog's Save keeps the changes pending; Publish changes makes them what consumers read", async () => {
      await s.setViewport(width);
      const blog = await makeBlog(true);
      await openEditor(blog);
      await expect(bar().getByText("Released", { exact: true }).isVisible()).resolves.toBe(true);
      await expect(bar().getByRole("button", { name: "Save", exact: true }).count()).resolves.toBe(
        0,
      );
      const consumerTitle = async () => {
        const res = await fetch(`${s.server.url}/api/consumer/blogs/${blog.id}`, {
          headers: { "x-api-key": secret },
        });
        return ((await res.json()) as Blog).title;
      };
      await page.getByLabel("Title", { exact: true }).fill(`${blog.title} (updated)`);
      await button("Save changes").click();
      await stateLine().getByText("Saved as pending changes").waitFor();
      await expect(bar().getByText("Changes pending", { exact: true }).isVisible()).resolves.toBe(
        true,
      );
      await expect(consumerTitle()).resolves.toBe(blog.title);
      await button("Publish changes").click();
      await stateLine().getByText("Published: consumers see the changes now.").waitFor();
      await expect(consumerTitle()).resolves.toBe(`${blog.title} (updated)`);
      await expect(bar().getByText("Changes pending", { exact: true }).count()).resolves.toBe(0);
      // Ctrl+S keeps a change pending too, without a question; Save and publish does both.
      await page.getByLabel("Body (Markdown)").fill("Updated by the shortcut.");
      await stateLine().getByText("Unsaved changes.").waitFor();
      await saveShortcut("Control");
      await stateLine().getByText("Saved as pending changes").waitFor();
      await expect(dialog().count()).resolves.toBe(0);
      await page.getByLabel("Excerpt").fill("Published at once");
      await button("Save and publish").click();
      await stateLine().getByText("Published: consumers see the changes now.").waitFor();
      const res = await fetch(`${s.server.url}/api/consumer/blogs/${blog.id}`, {
        headers: { "x-api-key": secret },
      });
      expect(await res.json()).toMatchObject({
        bodyMarkdown: "Updated by the shortcut.",
        excerpt: "Published at once",
      });
    });
  });
});

describe.each(WIDTHS)("deliberate changes at %s width", (width) => {
  it("Discard changes asks first; confirming returns the editor to the released version, which the list shows as such", async () => {
    await s.setViewport(width);
    const blog = await makeBlog(true);
    await openEditor(blog);
    await page.getByLabel("Title", { exact: true }).fill(`${blog.title}, pending`);
    await button("Save changes").click();
    await stateLine().getByText("Saved as pending changes").waitFor();
    await page.goto(s.url(`/w/${s.ws}/blogs`));
    const row = page.locator(".blog-item", { hasText: `${blog.title}, pending` });
    await row.getByText("Changes pending", { exact: true }).waitFor();
    await openEditor({ ...blog, title: `${blog.title}, pending` });
    await button("Discard changes").click();
    await dialog().getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe(
      `${blog.title}, pending`,
    );
    await button("Discard changes").click();
    await dialog().getByRole("button", { name: "Discard changes" }).click();
    await stateLine().getByText("Changes discarded").waitFor();
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe(blog.title);
    await expect(adminBlog(blog.id)).resolves.toMatchObject({ title: blog.title });
    await expect(bar().getByRole("button", { name: "Discard changes" }).count()).resolves.toBe(0);
  });

  it("Unrelease asks first: Cancel keeps it released for consumers; confirming takes it away", async () => {
    await s.setViewport(width);
    const blog = await makeBlog(true);
    await openEditor(blog);
    await button("Unrelease").click();
    await dialog().getByText("Consumers stop seeing it at once").waitFor();
    await dialog().getByRole("button", { name: "Cancel" }).click();
    await expect(dialog().count()).resolves.toBe(0);
    await expect(consumerStatus(blog.id)).resolves.toBe(200);
    await expect(bar().getByText("Released", { exact: true }).isVisible()).resolves.toBe(true);

    await button("Unrelease").click();
    await dialog().getByRole("button", { name: "Unrelease" }).click();
    await stateLine().getByText("Back to draft").waitFor();
    await expect(consumerStatus(blog.id)).resolves.toBe(404);
    await expect(bar().getByText("Draft", { exact: true }).isVisible()).resolves.toBe(true);
  });

  it("a key pressed at once after Unrelease or Remove opens its dialog answers the dialog", async () => {
    await s.setViewport(width);
    const blog = await makeBlog(true);
    await openEditor(blog);
    // Where each key lands: in the dialog (on its focused Cancel), not on the page behind it.
    await page.evaluate(() => {
      const w = window as unknown as { landed: string[] };
      w.landed = [];
      document.addEventListener(
        "keydown",
        (e) => {
          const target = e.target instanceof Element ? e.target : null;
          w.landed.push(`${e.key} ${target?.closest("dialog") ? target.textContent : "outside"}`);
        },
        true,
      );
    });
    // Escape straight after the click: the dialog is open already and takes it (it closes);
    // Enter straight after: Cancel has the focus, so it is harmless.
    await button("Unrelease").click();
    await page.keyboard.press("Escape");
    await expect(dialog().count()).resolves.toBe(0);
    await button("Remove").click();
    await page.keyboard.press("Enter");
    await expect(dialog().count()).resolves.toBe(0);
    await expect(
      page.evaluate(() => (window as unknown as { landed: string[] }).landed),
    ).resolves.toEqual(["Escape Cancel", "Enter Cancel"]);
    await expect(consumerStatus(blog.id)).resolves.toBe(200);
    await expect((await adminBlog(blog.id)).status).toBe("released");
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe(blog.title);
  });

  it("the first Release asks, showing the slug and the consumer URL it will have", async () => {
    await s.setViewport(width);
    await openEditor(null);
    await page.getByLabel("Title", { exact: true }).fill(`Release me ${width}`);
    await page.getByLabel("Body (Markdown)").fill("Hello, consumers.");
    await button("Save and release").click();
    // Saved as a draft first, so the dialog names the stored slug and the blog's own ID.
    await dialog().waitFor();
    const id = new URL(page.url()).pathname.split("/").pop() ?? "";
    expect(id).toMatch(/^b_/);
    const slug = `release-me-${width}`;
    await dialog().getByText(slug, { exact: true }).waitFor();
    await dialog().getByText(`${s.server.url}/api/consumer/blogs/${id}`, { exact: true }).waitFor();
    await dialog()
      .getByText(`${s.server.url}/api/consumer/blogs/by-slug/${slug}`, { exact: true })
      .waitFor();
    await expect(consumerStatus(id)).resolves.toBe(404);
    await dialog().getByRole("button", { name: "Release" }).click();
    await stateLine().getByText("Released: consumers can read it now.").waitFor();
    await expect(consumerStatus(id)).resolves.toBe(200);
  });

  it("Remove asks, then the list says “Blog … removed.”", async () => {
    await s.setViewport(width);
    const blog = await makeBlog(false);
    await openEditor(blog);
    await button("Remove").click();
    await dialog().getByRole("button", { name: "Remove blog" }).click();
    await page.getByRole("heading", { name: "Blogs", exact: true }).waitFor();
    await page.getByRole("status").getByText(`Blog “${blog.title}” removed.`).waitFor();
    await expect(s.owner.get(`/workspaces/${s.ws}/blogs/${blog.id}`)).resolves.toMatchObject({
      status: 404,
    });
  });
});

describe("Write / Preview", () => {
  it("on a phone the body and its preview are WAI-ARIA tabs, moved between with the arrow keys", async () => {
    await s.setViewport("phone");
    const blog = await makeBlog(false, "## Tabbed heading");
    await openEditor(blog);
    const write = page.getByRole("tab", { name: "Write" });
    const preview = page.getByRole("tab", { name: "Preview" });
    await expect(write.getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.getByLabel("Body (Markdown)").isVisible()).resolves.toBe(true);
    await expect(
      page.locator(".preview h2", { hasText: "Tabbed heading" }).isVisible(),
    ).resolves.toBe(false);
    await write.focus();
    await page.keyboard.press("ArrowRight");
    await expect(preview.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expect(preview.getAttribute("aria-selected")).resolves.toBe("true");
    const panel = page.getByRole("tabpanel");
    await expect(panel.getAttribute("aria-labelledby")).resolves.toBe(
      await preview.getAttribute("id"),
    );
    await panel.locator("h2", { hasText: "Tabbed heading" }).waitFor();
    await expect(page.getByLabel("Body (Markdown)").isVisible()).resolves.toBe(false);
    await s.checkScreen("editor-phone-preview-tab");
    // The check went to the desk width and back, hiding the tabs (and their focus) meanwhile.
    await expect(preview.getAttribute("aria-selected")).resolves.toBe("true");
    await preview.focus();
    await page.keyboard.press("ArrowLeft");
    await expect(write.getAttribute("aria-selected")).resolves.toBe("true");
    await expect(page.getByLabel("Body (Markdown)").isVisible()).resolves.toBe(true);
  });

  it("crossing 720 px keeps the same text area: its focus and text stay, no remount", async () => {
    await s.setViewport("phone");
    const blog = await makeBlog(false, "Kept body");
    await openEditor(blog);
    const body = page.getByLabel("Body (Markdown)");
    await body.click();
    await page.keyboard.type(" typed");
    await body.evaluate((el) => {
      (window as unknown as { keptBody?: Element }).keptBody = el;
    });
    for (const width of ["desktop", "phone"] as const) {
      await s.setViewport(width);
      await expect.poll(() => page.getByRole("tablist").count()).toBe(width === "phone" ? 1 : 0);
      await expect(
        body.evaluate(
          (el) =>
            el === (window as unknown as { keptBody?: Element }).keptBody &&
            el === document.activeElement,
        ),
      ).resolves.toBe(true);
      await expect(body.inputValue()).resolves.toBe("Kept body typed");
    }
  });

  it("a body the server refuses while Preview shows switches to Write and focuses the body", async () => {
    await s.setViewport("phone");
    const blog = await makeBlog(false, "Refused body");
    await openEditor(blog);
    await page.route(blogPath(blog.id), (route) => {
      if (route.request().method() !== "PATCH") return route.continue();
      return route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({ message: "request/body/bodyMarkdown must NOT contain a bell" }),
      });
    });
    await page.getByLabel("Body (Markdown)").fill("Refused body, changed");
    await page.getByRole("tab", { name: "Preview" }).click();
    await expect(page.getByLabel("Body (Markdown)").isVisible()).resolves.toBe(false);
    await saveShortcut("Control");
    const body = page.getByLabel("Body (Markdown)");
    await expectFieldError(body, /bell/);
    s.expectProblems(
      new RegExp(`^response 400 PATCH .*/blogs/${blog.id}$`),
      /^console\.error Failed to load resource: .*400/,
    );
    await expect(
      page.getByRole("tab", { name: "Write" }).getAttribute("aria-selected"),
    ).resolves.toBe("true");
    await expect.poll(() => body.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.unroute(blogPath(blog.id));
  });

  it("on a desk the body and its preview sit side by side, without tabs", async () => {
    await s.setViewport("desktop");
    const blog = await makeBlog(false, "## Side heading");
    await openEditor(blog);
    await expect(page.getByRole("tablist").count()).resolves.toBe(0);
    const body = await page.getByLabel("Body (Markdown)").boundingBox();
    const shown = await page.locator(".preview .prose").boundingBox();
    expect(body && shown && shown.x > body.x + body.width && Math.abs(shown.y - body.y) < 80).toBe(
      true,
    );
  });
});

describe.each(WIDTHS)("errors at %s width", (width) => {
  it("fields are checked inline, not by browser bubbles: the first invalid one is focused, and typing is kept", async () => {
    await s.setViewport(width);
    await openEditor(null);
    await expect(
      page.locator("form.editor").evaluate((f: HTMLFormElement) => f.noValidate),
    ).resolves.toBe(true);
    const slug = page.getByLabel("Slug");
    await slug.fill("Not A Slug");
    await page.getByLabel("Cover image URL").fill("ftp://example.com/x.png");
    await button("Save draft").click();
    const title = page.getByLabel("Title", { exact: true });
    await expectFieldError(title, /title/i);
    await expectFieldError(slug, /lower-case/);
    await expectFieldError(page.getByLabel("Cover image URL"), /http/);
    await expect(title.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expect(slug.inputValue()).resolves.toBe("Not A Slug");
    // The same screen at either width: checked (at both) once.
    if (width === "desktop") await s.checkScreen("editor-field-errors");
    // Corrected, each error goes with the change; the save goes through.
    await title.fill("Checked blog");
    await expect(title.getAttribute("aria-invalid")).resolves.toBeNull();
    await slug.fill(`checked-${width}`);
    await page.getByLabel("Cover image URL").fill("");
    await button("Save draft").click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
  });

  it("a slug the server refuses as taken is shown on the Slug field", async () => {
    await s.setViewport(width);
    const other = await makeBlog(false);
    const blog = await makeBlog(false);
    await openEditor(blog);
    const slug = page.getByLabel("Slug");
    await slug.fill(other.slug);
    await button("Save").click();
    await expectFieldError(slug, new RegExp(`"${other.slug}" is already used`));
    s.expectProblems(
      new RegExp(`^response 409 PATCH .*/blogs/${blog.id}$`),
      /^console\.error Failed to load resource: .*409/,
    );
    await expect(slug.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expect(slug.inputValue()).resolves.toBe(other.slug);
  });

  it("a save that fails on the way offers “Try again” in the bar, which runs it again", async () => {
    await s.setViewport(width);
    const blog = await makeBlog(false);
    await openEditor(blog);
    let refused = 0;
    await page.route(blogPath(blog.id), (route) => {
      if (route.request().method() === "PATCH" && refused++ === 0) return route.abort("failed");
      return route.continue();
    });
    await page.getByLabel("Excerpt").fill("Sent twice");
    await saveShortcut("Control");
    const alert = bar().getByRole("alert");
    await alert.getByText("Could not reach the server").waitFor();
    s.expectProblems(
      new RegExp(`^requestfailed PATCH .*/blogs/${blog.id} net::ERR_FAILED$`),
      /^console\.error Failed to load resource: net::ERR_FAILED/,
    );
    await stateLine().getByText("Unsaved changes.").waitFor();
    await page.evaluate(() => scrollTo(0, 0)); // the screenshot shows the bar where it starts
    if (width === "desktop") await s.checkScreen("editor-save-failed");
    await alert.getByRole("button", { name: "Try again", exact: true }).click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect(bar().getByRole("alert").count()).resolves.toBe(0);
    await expect(adminBlog(blog.id)).resolves.toMatchObject({ excerpt: "Sent twice" });
    await page.unroute(blogPath(blog.id));
  });
});

describe("the offline banner and the action bar", () => {
  it("on a phone scrolled down, a save failed on the network leaves Save and “Try again” on top of the banner", async () => {
    await s.setViewport("phone");
    const body = Array.from({ length: 120 }, (_, i) => `Paragraph ${i + 1} of a long body.`);
    const blog = await makeBlog(false, body.join("\n\n"));
    await openEditor(blog);
    await page.route(blogPath(blog.id), (route) => {
      if (route.request().method() === "PATCH") return route.abort("failed");
      return route.continue();
    });
    await page.getByLabel("Excerpt").fill("Not sent");
    await page.getByRole("tab", { name: "Preview" }).click(); // the long page, as a reader sees it
    await page.locator(".preview .prose p", { hasText: "Paragraph 120 " }).waitFor();
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    await expect(page.evaluate(() => scrollY)).resolves.toBeGreaterThan(1000);
    await saveShortcut("Control");
    await bar().getByRole("alert").getByText("Could not reach the server").waitFor();
    await page.locator(".offline-banner").waitFor();
    s.expectProblems(
      new RegExp(`^requestfailed PATCH .*/blogs/${blog.id} net::ERR_FAILED$`),
      /^console\.error Failed to load resource: net::ERR_FAILED/,
    );
    // A tap at each button's centre reaches that button, not the banner.
    for (const target of [button("Save"), bar().getByRole("button", { name: "Try again" })]) {
      const onTop = await target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      });
      expect(onTop).toBe(true);
    }
    await page.unroute(blogPath(blog.id));
    // The banner goes with the next answered request: Try again now goes through.
    await bar().getByRole("button", { name: "Try again" }).click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect(page.locator(".offline-banner").count()).resolves.toBe(0);
  });
});

describe("the server's refusals, each named on its field", () => {
  it.each([
    ["title", { title: "Bidi \u202e title" }, /text-direction override/],
    ["slug", { slug: "Not A Slug" }, /lower-case/],
    ["coverImageUrl", { coverImageUrl: "ftp://example.com/x.png" }, /http/],
    ["tags", { tags: ["ok", "zero\u200bwidth"] }, /invisible/],
    ["excerpt", { excerpt: "line\u0007bell" }, /control character/],
  ] as const)("a refused %s is shown on that field", async (field, patch, said) => {
    const blog = await makeBlog(false);
    const res = await s.owner.patch<{ message: string }>(
      `/workspaces/${s.ws}/blogs/${blog.id}`,
      patch,
      ANY_VERSION,
    );
    expect(res.status).toBe(400);
    const shown = fieldErrorOf(new ApiError(res.body.message, res.status));
    expect(shown?.field).toBe(field);
    expect(shown?.message).toMatch(said);
  });

  it("a slug in use (409) is the Slug field's; other refusals name no field", async () => {
    const [one, two] = [await makeBlog(false), await makeBlog(false)];
    const res = await s.owner.patch<{ message: string }>(
      `/workspaces/${s.ws}/blogs/${two.id}`,
      { slug: one.slug },
      ANY_VERSION,
    );
    expect(res.status).toBe(409);
    expect(fieldErrorOf(new ApiError(res.body.message, 409))?.field).toBe("slug");
    expect(fieldErrorOf(new ApiError("Blog not found.", 404))).toBeNull();
    expect(fieldErrorOf(new ApiError("Could not reach the server.", 0))).toBeNull();
  });

  it("the form's own checks agree with the server on what it refuses and accepts", () => {
    const ok = {
      ...EMPTY_DRAFT,
      title: "A title",
      slug: "a-slug-2",
      coverImageUrl: "https://x.test/a.png",
    };
    expect(checkDraft(ok)).toEqual({});
    expect(Object.keys(checkDraft({ ...ok, title: "  " }))).toEqual(["title"]);
    expect(Object.keys(checkDraft({ ...ok, slug: "a--b" }))).toEqual(["slug"]);
    expect(Object.keys(checkDraft({ ...ok, slug: "x".repeat(81) }))).toEqual(["slug"]);
    expect(Object.keys(checkDraft({ ...ok, coverImageUrl: "/relative.png" }))).toEqual([
      "coverImageUrl",
    ]);
    expect(Object.keys(checkDraft({ ...ok, tags: "ok, zero\u200bwidth" }))).toEqual(["tags"]);
  });
});

describe("screens", () => {
  it("the editor: new, draft, released, and each of its dialogs pass axe at both widths", async () => {
    await s.setViewport("desktop");
    await openEditor(null);
    await s.checkScreen("editor-new");
    const draft = await makeBlog(false, "## A draft\n\nWith *words*.");
    await openEditor(draft);
    await page.locator(".preview h2", { hasText: "A draft" }).waitFor();
    await s.checkScreen("editor-draft");
    await button("Release").click();
    await dialog().waitFor();
    await s.checkScreen("editor-release-dialog");
    await dialog().getByRole("button", { name: "Cancel" }).click();
    await button("Remove").click();
    await s.checkScreen("editor-remove-dialog");
    await dialog().getByRole("button", { name: "Cancel" }).click();
    const released = await makeBlog(true);
    await openEditor(released);
    await s.checkScreen("editor-released");
    await button("Unrelease").click();
    await s.checkScreen("editor-unrelease-dialog");
    await dialog().getByRole("button", { name: "Cancel" }).click();
    await page.getByLabel("Excerpt").fill("A pending excerpt");
    await button("Save changes").click();
    await stateLine().getByText("Saved as pending changes").waitFor();
    await s.checkScreen("editor-pending-changes");
    await button("Discard changes").click();
    await s.checkScreen("editor-discard-dialog");
    await dialog().getByRole("button", { name: "Cancel" }).click();
  });
});

/** Whether the editor's name for a field is marked invalid and described by `text`. */
async function expectFieldError(field: Locator, text: RegExp): Promise<void> {
  await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
  const described = (await field.getAttribute("aria-describedby")) ?? "";
  const first = described.split(" ")[0] ?? "";
  await expect(page.locator(`[id="${first}"]`).textContent()).resolves.toMatch(text);
}
