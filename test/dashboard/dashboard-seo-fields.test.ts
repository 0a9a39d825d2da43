import type { Page, Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminLimits } from "../../openapi/generated/admin-limits.js";
import { ANY_VERSION } from "../support/admin-client.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

// The editor's search and social fields (openapi.yaml, "Presentation and search fields";
// dashboard/README.md, "Search and social"): alt text, Featured, the meta title and description,
// the canonical URL and the social image, saved and read back, handed to consumers once
// released; the live search-result and social-card previews; a conflict merged field by field;
// typed text kept in the browser; a refused URL said on its field.
// In headless Chromium against the real server, at 1280×800 and 390×844.

interface Blog {
  id: string;
  title: string;
  version: string;
  readingTimeMinutes: number;
}

/** Images on someone else's server: answered here, so no request leaves the machine. */
const IMAGES = "https://images.example.test";
const BROKEN = "https://broken.example.test";
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

let s: DashboardSession;
let page: Page;
let secret = "";
/** Every image request the page made, to see what it sent. */
const imageRequests: Request[] = [];

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-seo-fields" });
  page = s.page;
  page.setDefaultTimeout(10_000);
  const minted = await s.owner.post<{ secret: string }>(`/workspaces/${s.ws}/keys`, {
    name: "SEO test reader",
  });
  secret = minted.body.secret;
  // Registered after the session's own route, so these answer first.
  await page.route(`${IMAGES}/**`, (route) => {
    imageRequests.push(route.request());
    return route.fulfill({ status: 200, contentType: "image/png", body: PNG });
  });
  await page.route(`${BROKEN}/**`, (route) => route.fulfill({ status: 404, body: "gone" }));
});
afterEach(async () => {
  await s.setViewport("desktop");
  await s.assertNoProblems();
});
afterAll(async () => {
  await s?.close();
});

let made = 0;
async function makeBlog(fields: Record<string, unknown> = {}): Promise<Blog> {
  made++;
  const res = await s.owner.post<Blog>(`/workspaces/${s.ws}/blogs`, {
    title: `SEO blog ${made}`,
    bodyMarkdown: "The first paragraph of the body.\n\nThe second.",
    ...fields,
  });
  expect(res.status).toBe(201);
  return res.body;
}

const stored = async (id: string) =>
  (await s.owner.get<Blog & Record<string, unknown>>(`/workspaces/${s.ws}/blogs/${id}`)).body;

async function openEditor(blog: Blog): Promise<void> {
  await page.goto(s.url(`/w/${s.ws}/blogs/${blog.id}`));
  await page.getByRole("heading", { name: "Edit blog" }).waitFor();
  await expect.poll(() => field("Title").inputValue()).toBe(blog.title);
}

/** A field by its exact label ("Title" is also in "Meta title"). */
const field = (label: string) => page.getByLabel(label, { exact: true });
const section = () => page.locator("details.seo-section");
const isOpen = () => section().evaluate((d) => (d as HTMLDetailsElement).open);
async function openSection(): Promise<void> {
  if (!(await isOpen())) await section().locator("summary").click();
  await expect.poll(isOpen).toBe(true);
}
const stateLine = () => page.locator(".editor-bar").getByRole("status");
/** Save ("Save draft" while the blog is new). */
const saveButton = () =>
  page.locator(".editor-bar").getByRole("button", { name: /^Save( draft)?$/ });
const searchPreview = () => page.getByRole("figure", { name: "Search result preview" });
const card = () => page.getByRole("figure", { name: "Social card preview" });

const WIDTHS: ViewportName[] = ["desktop", "phone"];

describe.each(WIDTHS)("at %s width", (width) => {
  it("every new field set on a new blog is saved, shown again after a reload, and served to consumers once released", async () => {
    await s.setViewport(width);
    await page.goto(s.url(`/w/${s.ws}/blogs/new`));
    await page.getByRole("heading", { name: "New blog" }).waitFor();
    // Closed while none of its fields is set.
    await expect(isOpen()).resolves.toBe(false);
    await field("Title").fill(`Fields at ${width}`);
    await field("Body (Markdown)").fill("Words to read.");
    await field("Cover image URL").fill(`${IMAGES}/cover-${width}.png`);
    await field("Alt text").fill("A harbour at dawn");
    await page.getByRole("checkbox", { name: "Featured" }).check();
    await openSection();
    await field("Meta title").fill("Search title");
    const countHint = `12 of ${adminLimits.createBlog.metaTitle.maxLength} characters.`;
    await section().getByText(countHint, { exact: false }).waitFor();
    await field("Meta description").fill("What a search result says.");
    await field("Canonical URL").fill("https://origin.example.com/first/post");
    await field("Social image URL").fill(`${IMAGES}/social-${width}.png`);
    await saveButton().click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/blogs\/b_/);
    const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const expected = {
      coverImageUrl: `${IMAGES}/cover-${width}.png`,
      coverImageAlt: "A harbour at dawn",
      featured: true,
      metaTitle: "Search title",
      metaDescription: "What a search result says.",
      canonicalUrl: "https://origin.example.com/first/post",
      socialImageUrl: `${IMAGES}/social-${width}.png`,
    };
    await expect(stored(id)).resolves.toMatchObject(expected);

    await page.reload();
    await expect.poll(() => field("Title").inputValue()).toBe(`Fields at ${width}`);
    await expect(isOpen(), "open: its fields are set").resolves.toBe(true);
    await expect(field("Alt text").inputValue()).resolves.toBe(expected.coverImageAlt);
    await expect(page.getByRole("checkbox", { name: "Featured" }).isChecked()).resolves.toBe(true);
    await expect(field("Meta title").inputValue()).resolves.toBe(expected.metaTitle);
    await expect(field("Meta description").inputValue()).resolves.toBe(expected.metaDescription);
    await expect(field("Canonical URL").inputValue()).resolves.toBe(expected.canonicalUrl);
    await expect(field("Social image URL").inputValue()).resolves.toBe(expected.socialImageUrl);
    await page.getByText("1 min read, as last saved.").waitFor();
    await stateLine().getByText("No unsaved changes.").waitFor();

    // An edit of one of them is named in words in the history.
    await field("Meta title").fill("A better search title");
    await stateLine().getByText("Unsaved changes.").waitFor();
    await saveButton().click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await page.getByRole("button", { name: "History", exact: true }).click();
    const history = page.getByRole("dialog", { name: "History" });
    await history.getByText("Changed: Meta title", { exact: true }).waitFor();
    await history.getByRole("button", { name: "Close" }).click();

    const released = await s.owner.post(
      `/workspaces/${s.ws}/blogs/${id}/release`,
      undefined,
      ANY_VERSION,
    );
    expect(released.status).toBe(200);
    const res = await fetch(`${s.server.url}/api/consumer/blogs/${id}`, {
      headers: { "x-api-key": secret },
    });
    expect(res.status).toBe(200);
    await expect(res.json()).resolves.toMatchObject({
      ...expected,
      metaTitle: "A better search title",
      readingTimeMinutes: 1,
    });
  });

  it("the search result shows the meta title when set and the title when cleared, and cuts a long description", async () => {
    await s.setViewport(width);
    const blog = await makeBlog({ excerpt: "The excerpt." });
    await openEditor(blog);
    await openSection();
    const title = searchPreview().locator(".serp-title");
    const description = searchPreview().locator(".serp-description");
    await expect(title.innerText()).resolves.toBe(blog.title);
    await expect(description.innerText()).resolves.toBe("The excerpt.");
    await expect(searchPreview().locator(".serp-address").innerText()).resolves.toContain(
      "seo-blog-",
    );

    await field("Meta title").fill("<b>Not bold</b> & typed");
    await expect.poll(() => title.innerText()).toBe("<b>Not bold</b> & typed"); // text, not HTML
    await expect(searchPreview().locator("b").count()).resolves.toBe(0);
    await field("Meta title").fill("");
    await expect.poll(() => title.innerText()).toBe(blog.title);

    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    await field("Meta description").fill(long);
    await expect.poll(() => description.innerText()).toMatch(/…$/);
    const shown = await description.innerText();
    expect(shown.length).toBeLessThanOrEqual(160);
    expect(long.startsWith(shown.slice(0, -1))).toBe(true);
    await field("Canonical URL").fill("https://origin.example.com/2026/notes");
    await expect
      .poll(() => searchPreview().locator(".serp-address").innerText())
      .toBe("origin.example.com › 2026 › notes");
  });

  it("the social card shows the social image, else the cover, with the alt text; a broken image is a placeholder", async () => {
    await s.setViewport(width);
    const cover = `${IMAGES}/cover-card-${width}.png`;
    const blog = await makeBlog({ coverImageUrl: cover, coverImageAlt: "Boats in a row" });
    await openEditor(blog);
    await openSection();
    const image = card().locator("img");
    await expect.poll(() => image.getAttribute("src")).toBe(cover);
    await expect(image.getAttribute("alt")).resolves.toBe("Boats in a row");
    await expect.poll(() => image.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(1);
    const social = `${IMAGES}/social-card-${width}.png`;
    await field("Social image URL").fill(social);
    await expect.poll(() => image.getAttribute("src")).toBe(social);
    await expect(image.getAttribute("alt")).resolves.toBe("Boats in a row");
    await expect.poll(() => imageRequests.some((r) => r.url() === social)).toBe(true);
    for (const request of imageRequests.filter((r) => r.url() === social || r.url() === cover)) {
      expect(await request.headerValue("referer"), "no Referer").toBeNull();
    }
    await expect(card().locator(".social-host").count()).resolves.toBe(0);
    await field("Canonical URL").fill("https://origin.example.com/x");
    await expect
      .poll(() => card().locator(".social-host").innerText())
      .toMatch(/^origin\.example\.com$/i);

    s.expectProblems(/broken\.example\.test/);
    await field("Social image URL").fill(`${BROKEN}/gone-${width}.png`);
    await card().getByText("The image cannot be shown").waitFor();
    await field("Social image URL").fill("");
    await field("Cover image URL").fill("");
    await card().getByText("No image").waitFor();
    await expect(card().locator("img").count()).resolves.toBe(0);
  });

  it("a conflict is decided field by field: their Featured is kept, my meta title saved on top", async () => {
    await s.setViewport(width);
    const blog = await makeBlog();
    await openEditor(blog);
    const theirs = await s.owner.patch(
      `/workspaces/${s.ws}/blogs/${blog.id}`,
      { featured: true, metaTitle: "Their meta title" },
      ANY_VERSION,
    );
    expect(theirs.status).toBe(200);
    await openSection();
    await field("Meta title").fill("My meta title");
    await saveButton().click();
    const dialog = page.getByRole("dialog", { name: "Someone else changed this blog" });
    await dialog.waitFor();
    s.expectProblems(
      new RegExp(`^response 412 PATCH .*/blogs/${blog.id}$`),
      /^console\.error Failed to load resource: .*412/,
    );
    await dialog.getByText("Their changes to Featured are kept whichever you choose.").waitFor();
    const row = dialog.getByRole("row", { name: /^Meta title/ });
    await expect(row.getByRole("cell").allTextContents()).resolves.toEqual([
      "Their meta title",
      "My meta title",
    ]);
    await dialog.getByRole("button", { name: "Keep mine (save on top)" }).click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect(stored(blog.id)).resolves.toMatchObject({
      featured: true,
      metaTitle: "My meta title",
    });
    await expect(page.getByRole("checkbox", { name: "Featured" }).isChecked()).resolves.toBe(true);
  });

  it("typed search and social text is kept in the browser and restored after a reload, its section opened", async () => {
    await s.setViewport(width);
    const blog = await makeBlog();
    await openEditor(blog);
    await openSection();
    await field("Meta description").fill("Kept across a reload");
    await page.getByRole("checkbox", { name: "Featured" }).check();
    const kept = () =>
      page.evaluate(
        ([ws, id]) => {
          const key = Object.keys(localStorage).find((k) => k.endsWith(`:${ws}:${id}`));
          return key === undefined ? null : localStorage.getItem(key);
        },
        [s.ws, blog.id],
      );
    await expect.poll(kept).toContain("Kept across a reload");
    page.once("dialog", (question) => void question.accept()); // the browser's "Leave site?"
    await page.reload();
    const restore = page.getByRole("dialog", { name: "Restore unsaved changes?" });
    await restore.waitFor();
    await expect(isOpen(), "nothing set in the blog as saved").resolves.toBe(false);
    await restore.getByRole("button", { name: "Restore" }).click();
    await expect.poll(isOpen).toBe(true);
    await expect(field("Meta description").inputValue()).resolves.toBe("Kept across a reload");
    await expect(page.getByRole("checkbox", { name: "Featured" }).isChecked()).resolves.toBe(true);
    await stateLine().getByText("Unsaved changes.").waitFor();
    await saveButton().click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect(stored(blog.id)).resolves.toMatchObject({
      featured: true,
      metaDescription: "Kept across a reload",
    });
    await expect.poll(kept).toBeNull();
  });

  it("a canonical URL with a password is refused on its field, and nothing is saved", async () => {
    await s.setViewport(width);
    const blog = await makeBlog();
    await openEditor(blog);
    await openSection();
    const canonical = field("Canonical URL");
    await canonical.fill("https://someone:secret@origin.example.com/post");
    // Closed again: the refusal opens it, so the focus reaches the field.
    await section().locator("summary").click();
    await expect.poll(isOpen).toBe(false);
    await saveButton().click();
    await expect.poll(isOpen).toBe(true);
    await expect.poll(() => canonical.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => canonical.evaluate((el) => el === document.activeElement)).toBe(true);
    const error = section().locator(".field-error");
    await expect(error.innerText()).resolves.toMatch(/no user name or password/);
    const errorId = await error.getAttribute("id");
    await expect(canonical.getAttribute("aria-describedby")).resolves.toContain(errorId);
    const now = await stored(blog.id);
    expect(now.version).toBe(blog.version);
    expect(now.canonicalUrl).toBeNull();
    // Fixed, it saves.
    await canonical.fill("https://origin.example.com/post");
    await expect(canonical.getAttribute("aria-invalid")).resolves.toBeNull();
    await saveButton().click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect(stored(blog.id)).resolves.toMatchObject({
      canonicalUrl: "https://origin.example.com/post",
    });
  });
});

it("the editor with Search and social open has no axe violation and no sideways scroll at either width", async () => {
  const blog = await makeBlog({
    coverImageUrl: `${IMAGES}/axe.png`,
    coverImageAlt: "A quiet street",
    metaTitle: "A title for search engines that is long enough to be cut by them, surely",
    metaDescription: "A description.",
    canonicalUrl: "https://origin.example.com/a/very/long/path/that/goes/on/and/on/and/on",
  });
  await openEditor(blog);
  await expect(isOpen()).resolves.toBe(true);
  await card().locator("img").waitFor();
  await s.checkScreen("seo-section-open");
});
