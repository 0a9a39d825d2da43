// The editor's Authors field (admin.yaml, BlogInput.authors and BlogPatch.authors: ordered
// author IDs, at most 10, the first the primary; AdminBlog.authors: the Author objects;
// README.md, "Authors"; dashboard/README.md, "Authors on a blog"): two of the workspace's
// authors chosen on a new blog, reordered with Move up, saved as IDs in that order and shown
// in it again after a reload; a removal is an unsaved change, saved as a PATCH of `authors`
// alone and named "Authors" in the history; an author removed from the workspace meanwhile is
// the server's 400, said on the Authors field; with none chosen the Author byline stands. In
// headless Chromium against the real server, at 1280×800 and 390×844, axe clean.
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

interface Author {
  id: string;
  name: string;
}
interface Blog {
  id: string;
  authorName: string;
  authors: Author[];
}

let s: DashboardSession;
let page: Page;
const made: Record<string, Author> = {};

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-blog-authors" });
  page = s.page;
  page.setDefaultTimeout(10_000);
  for (const name of ["Ada Lovelace", "Grace Hopper", "Émile Zola"]) {
    const res = await s.owner.post<Author>(`/workspaces/${s.ws}/authors`, { name });
    expect(res.status).toBe(201);
    made[name] = res.body;
  }
});
afterEach(async () => {
  await s.setViewport("desktop");
  await s.assertNoProblems();
});
afterAll(() => s?.close());

const idOf = (name: string) => made[name]?.id ?? "";
const stored = async (id: string) =>
  (await s.owner.get<Blog>(`/workspaces/${s.ws}/blogs/${id}`)).body;
/** A field by its exact label ("Title" is also in "Meta title"). */
const field = (label: string) => page.getByLabel(label, { exact: true });
const picker = () => page.getByRole("group", { name: "Authors" });
/** The chosen authors' names as listed, in order. */
const chosen = () => picker().locator(".chosen-author-label").allInnerTexts();
/** The name the Primary badge stands beside. */
const primary = () =>
  picker()
    .locator(".chosen-author", { has: page.locator(".primary-author") })
    .locator(".chosen-author-label")
    .allInnerTexts();
const stateLine = () => page.locator(".editor-bar").getByRole("status");
const saveButton = () =>
  page.locator(".editor-bar").getByRole("button", { name: /^Save( draft)?$/ });
async function choose(name: string): Promise<void> {
  await picker()
    .getByLabel("Add an author")
    .selectOption({ label: `${name} (${slugOf(name)})` });
  await picker().getByRole("button", { name: "Add", exact: true }).click();
}
const slugOf = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, "-");

const WIDTHS: ViewportName[] = ["desktop", "phone"];

describe.each(WIDTHS)("at %s width", (width) => {
  it("two authors chosen and reordered are saved as IDs in that order and shown so after a reload (admin.yaml, BlogInput.authors)", async () => {
    await s.setViewport(width);
    await page.goto(s.url(`/w/${s.ws}/blogs/new`));
    await page.getByRole("heading", { name: "New blog" }).waitFor();
    await field("Title").fill(`Two authors at ${width}`);
    await field("Body (Markdown)").fill("Written together.");
    // None chosen: the byline stands, and the hint says so.
    await picker().getByText("None chosen: the byline in Author is shown.").waitFor();
    await expect(
      picker()
        .getByText(/With none, readers see the name in Author\./)
        .count(),
    ).resolves.toBe(1);

    await choose("Grace Hopper");
    await choose("Ada Lovelace");
    await expect(chosen()).resolves.toEqual(["Grace Hopper", "Ada Lovelace"]);
    await expect(primary()).resolves.toEqual(["Grace Hopper"]);
    // Chosen authors are no longer offered.
    await expect(
      picker().getByLabel("Add an author").locator("option").allInnerTexts(),
    ).resolves.toEqual(["Choose an author…", "Émile Zola (emile-zola)"]);

    const up = picker().getByRole("button", { name: "Move up Ada Lovelace" });
    await up.click();
    await expect(chosen()).resolves.toEqual(["Ada Lovelace", "Grace Hopper"]);
    await expect(primary()).resolves.toEqual(["Ada Lovelace"]);
    // The moved author's button keeps the focus, now at the top: it does nothing there.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("Move up Ada Lovelace");
    await expect(up.getAttribute("aria-disabled")).resolves.toBe("true");
    await page.keyboard.press("Enter");
    await expect(chosen()).resolves.toEqual(["Ada Lovelace", "Grace Hopper"]);
    await s.checkScreen(`${width}-two-authors-chosen`);

    await saveButton().click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/blogs\/b_/);
    const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const blog = await stored(id);
    expect(blog.authors.map((a) => a.id)).toEqual([idOf("Ada Lovelace"), idOf("Grace Hopper")]);

    await page.reload();
    await expect.poll(() => field("Title").inputValue()).toBe(`Two authors at ${width}`);
    await expect.poll(chosen).toEqual(["Ada Lovelace", "Grace Hopper"]);
    await expect(primary()).resolves.toEqual(["Ada Lovelace"]);
    await stateLine().getByText("No unsaved changes.").waitFor();

    // A removal is an unsaved change, saved as the authors alone, named in the history.
    await picker().getByRole("button", { name: "Remove Grace Hopper" }).click();
    await expect(chosen()).resolves.toEqual(["Ada Lovelace"]);
    await stateLine().getByText("Unsaved changes.").waitFor();
    const patch = page.waitForRequest(
      (r) => r.method() === "PATCH" && r.url().endsWith(`/blogs/${id}`),
    );
    await saveButton().click();
    await expect((await patch).postDataJSON()).toEqual({ authors: [idOf("Ada Lovelace")] });
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await page.getByRole("button", { name: "History", exact: true }).click();
    const history = page.getByRole("dialog", { name: "History" });
    await history.getByText("Changed: Authors", { exact: true }).waitFor();
    await s.checkScreen(`${width}-history-authors`);
    await history.getByRole("button", { name: "Close" }).click();
    expect((await stored(id)).authors.map((a) => a.name)).toEqual(["Ada Lovelace"]);
  });

  it("an author removed from the workspace meanwhile is refused on the Authors field (admin.yaml, BlogAuthorIds: 400 naming it)", async () => {
    await s.setViewport(width);
    const gone = await s.owner.post<Author>(`/workspaces/${s.ws}/authors`, {
      name: `Octave Mirbeau ${width}`,
      slug: `octave-${width}`,
    });
    await page.goto(s.url(`/w/${s.ws}/blogs/new`));
    await page.getByRole("heading", { name: "New blog" }).waitFor();
    await field("Title").fill(`Removed meanwhile at ${width}`);
    await picker()
      .getByLabel("Add an author")
      .selectOption({ label: `${gone.body.name} (octave-${width})` });
    await picker().getByRole("button", { name: "Add", exact: true }).click();
    await choose("Ada Lovelace");
    const removed = await s.owner.delete(`/workspaces/${s.ws}/authors/${gone.body.id}`);
    expect(removed.status).toBe(204);

    s.expectProblems(/response 400 POST .*\/blogs$/, /status of 400/);
    await saveButton().click();
    const problem = picker().locator(".field-error");
    await problem.waitFor();
    await expect(problem.textContent()).resolves.toBe(
      "An author chosen here was removed from the workspace meanwhile: remove them, then save again.",
    );
    const chooser = picker().getByLabel("Add an author");
    await expect(chooser.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect.poll(() => chooser.evaluate((el) => el === document.activeElement)).toBe(true);
    await s.checkScreen(`${width}-author-removed-meanwhile`);

    await picker()
      .getByRole("button", { name: `Remove ${gone.body.name}` })
      .click();
    await expect(problem.count()).resolves.toBe(0);
    await expect(chosen()).resolves.toEqual(["Ada Lovelace"]);
    await saveButton().click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/blogs\/b_/);
    const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    expect((await stored(id)).authors.map((a) => a.id)).toEqual([idOf("Ada Lovelace")]);
  });

  it("with no author chosen the Author byline is what the blog has (admin.yaml, AdminBlog.authorName)", async () => {
    await s.setViewport(width);
    await page.goto(s.url(`/w/${s.ws}/blogs/new`));
    await page.getByRole("heading", { name: "New blog" }).waitFor();
    await field("Title").fill(`Byline at ${width}`);
    await field("Author").fill("The Desk");
    await saveButton().click();
    await stateLine().getByText("Saved.", { exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/blogs\/b_/);
    const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    await expect(stored(id)).resolves.toMatchObject({ authorName: "The Desk", authors: [] });
  });
});
