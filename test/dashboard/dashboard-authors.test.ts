// The Authors screen (README.md, "Authors"; admin.yaml, tag Authors: listAuthors, createAuthor,
// updateAuthor, removeAuthor; dashboard/README.md, "Authors"): reached from the header, empty at
// first with what authors are for; an author added without a slug gets their name's; a slug
// another author has is the server's 409, said on the Slug field; an edit clears a website; a
// removal is asked first; a failed load offers "Try again". Run whole at 1280×800 and at
// 390×844, each state under axe with no sideways scrolling, no console error or failed request.
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

interface Author {
  id: string;
  name: string;
  slug: string;
  bio: string | null;
  avatarUrl: string | null;
  websiteUrl: string | null;
}

/** Avatars on someone else's server: answered here, so no request leaves the machine. */
const IMAGES = "https://images.example.test";
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

let s: DashboardSession;
let page: Page;

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-authors" });
  page = s.page;
  page.setDefaultTimeout(10_000);
  // Registered after the session's own route, so this answers first.
  await page.route(`${IMAGES}/**`, (route) =>
    route.fulfill({ status: 200, contentType: "image/png", body: PNG }),
  );
});
afterEach(async () => {
  await s.setViewport("desktop");
  await s.assertNoProblems();
});
afterAll(() => s?.close());

const authorsNow = async (): Promise<Author[]> =>
  (await s.owner.get<{ data: Author[] }>(`/workspaces/${s.ws}/authors`)).body.data;
const heading = (name: string) => page.getByRole("heading", { name, exact: true });
const list = (): Locator => page.getByRole("list", { name: /^Authors of / });
const item = (name: string): Locator =>
  list()
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000 });

for (const viewport of ["desktop", "phone"] as const satisfies readonly ViewportName[]) {
  const at = viewport === "desktop" ? "1280×800" : "390×844";
  // checkScreen holds each state to axe at both widths; the second run's shots replace the first's.
  const shot = (name: string) => s.checkScreen(name);

  describe(`the Authors screen at ${at} (README.md, "Authors"; admin.yaml, tag Authors)`, () => {
    it("the header leads to it; empty, it says what authors are for and offers to add one", async () => {
      await s.setViewport(viewport);
      await page.goto(s.url(`/w/${s.ws}/blogs`));
      await heading("Blogs").waitFor();
      await page
        .getByRole("navigation", { name: "Sections" })
        .getByRole("link", { name: "Authors" })
        .click();
      await heading("Authors").waitFor();
      expect(new URL(page.url()).pathname).toBe(`/dashboard/w/${s.ws}/authors`);
      await heading("No authors yet").waitFor();
      await expect(page.locator(".empty").textContent()).resolves.toContain(
        "choose them on each blog they wrote",
      );
      await expect(
        page
          .getByRole("navigation", { name: "Sections" })
          .getByRole("link", { name: "Authors" })
          .getAttribute("aria-current"),
      ).resolves.toBe("page");
      await shot("empty");
    });

    it("a name is required: said on its field, nothing sent (admin.yaml, AuthorInput.name)", async () => {
      await s.setViewport(viewport);
      await page.getByRole("button", { name: "Add your first author" }).click();
      const dialog = page.getByRole("dialog", { name: "Add an author" });
      await dialog.getByRole("button", { name: "Add author" }).click();
      const name = dialog.getByRole("textbox", { name: "Name" });
      await eventually(() => name.getAttribute("aria-invalid")).toBe("true");
      await eventually(() => page.evaluate(() => document.activeElement?.id)).toBe(
        await name.getAttribute("id"),
      );
      await expect(dialog.locator(".field-error").textContent()).resolves.toBe(
        "Enter the author's name.",
      );
      await expect(authorsNow()).resolves.toEqual([]);
      // The slug's rule is said under it.
      await expect(
        dialog.getByText(/Empty: made from the name \(Émile Zola → emile-zola\)/).count(),
      ).resolves.toBe(1);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
    });

    it('an author added without a slug gets their name\'s, with bio, avatar (alt "") and website (README.md, Authors, Slugs)', async () => {
      await s.setViewport(viewport);
      await page.getByRole("button", { name: "Add author", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Add an author" });
      await dialog.getByRole("textbox", { name: "Name" }).fill("Émile Zola");
      await dialog.getByRole("textbox", { name: "Bio" }).fill("Novelist.\nJ'accuse…!");
      await dialog.getByRole("textbox", { name: "Avatar URL" }).fill(`${IMAGES}/zola.png`);
      await dialog.getByRole("textbox", { name: "Website URL" }).fill("https://example.com/zola");
      await shot("add-dialog");
      await dialog.getByRole("button", { name: "Add author" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Émile Zola added, as “emile-zola”.").waitFor();
      const row = item("Émile Zola");
      await expect(row.locator(".author-slug").textContent()).resolves.toBe("Slug: emile-zola");
      await expect(
        row.getByRole("link", { name: /example\.com\/zola/ }).getAttribute("href"),
      ).resolves.toBe("https://example.com/zola");
      const avatar = row.locator("img.avatar");
      await expect(avatar.getAttribute("alt")).resolves.toBe("");
      await eventually(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
      await expect(row.locator(".author-bio").innerText()).resolves.toBe("Novelist.\nJ'accuse…!");
      const [stored] = await authorsNow();
      expect(stored).toMatchObject({
        name: "Émile Zola",
        slug: "emile-zola",
        bio: "Novelist.\nJ'accuse…!",
        avatarUrl: `${IMAGES}/zola.png`,
        websiteUrl: "https://example.com/zola",
      });
      await shot("one-author");
    });

    it("a slug another author has is the server's 409, said on the Slug field (admin.yaml, createAuthor)", async () => {
      await s.setViewport(viewport);
      s.expectProblems(/response 409 POST .*\/authors$/, /status of 409/);
      await page.getByRole("button", { name: "Add author", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Add an author" });
      await dialog.getByRole("textbox", { name: "Name" }).fill("Ada Lovelace");
      const slug = dialog.getByRole("textbox", { name: "Slug" });
      await slug.fill("emile-zola");
      await dialog.getByRole("button", { name: "Add author" }).click();
      await eventually(() => slug.getAttribute("aria-invalid")).toBe("true");
      await expect(dialog.locator(".field-error").textContent()).resolves.toBe(
        'Slug "emile-zola" is already used by another author of this workspace.',
      );
      await eventually(() => page.evaluate(() => document.activeElement?.id)).toBe(
        await slug.getAttribute("id"),
      );
      // What was typed stays.
      await expect(dialog.getByRole("textbox", { name: "Name" }).inputValue()).resolves.toBe(
        "Ada Lovelace",
      );
      await shot("slug-taken");
      await slug.fill("ada");
      await expect(slug.getAttribute("aria-invalid")).resolves.toBe(null);
      await dialog.getByRole("button", { name: "Add author" }).click();
      await dialog.waitFor({ state: "detached" });
      await item("Ada Lovelace").waitFor();
      // Listed by name: Ada before Émile.
      await expect(list().locator(".author-name").allTextContents()).resolves.toEqual([
        "Ada Lovelace",
        "Émile Zola",
      ]);
      // No avatar: the initial instead, hidden from screen readers.
      await expect(
        item("Ada Lovelace").locator(".avatar-none").getAttribute("aria-hidden"),
      ).resolves.toBe("true");
    });

    it("an edit changes the bio and clears the website (admin.yaml, updateAuthor: empty is none)", async () => {
      await s.setViewport(viewport);
      await item("Émile Zola").getByRole("button", { name: "Edit Émile Zola" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Émile Zola" });
      const slug = dialog.getByRole("textbox", { name: "Slug" });
      await expect(slug.inputValue()).resolves.toBe("emile-zola");
      await dialog.getByRole("textbox", { name: "Bio" }).fill("Wrote Germinal.");
      await dialog.getByRole("textbox", { name: "Website URL" }).fill("");
      await shot("edit-dialog");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Émile Zola saved.").waitFor();
      const row = item("Émile Zola");
      await expect(row.locator(".author-bio").textContent()).resolves.toBe("Wrote Germinal.");
      await expect(row.getByRole("link").count()).resolves.toBe(0);
      const zola = (await authorsNow()).find((a) => a.name === "Émile Zola");
      expect(zola).toMatchObject({ bio: "Wrote Germinal.", websiteUrl: null, slug: "emile-zola" });
    });

    it("a removal is asked first, Cancel focused; then the author is gone (admin.yaml, removeAuthor)", async () => {
      await s.setViewport(viewport);
      await item("Ada Lovelace").getByRole("button", { name: "Remove Ada Lovelace" }).click();
      const dialog = page.getByRole("dialog", { name: "Remove Ada Lovelace?" });
      await dialog.waitFor();
      await eventually(() => page.evaluate(() => document.activeElement?.textContent)).toBe(
        "Cancel",
      );
      await shot("remove-dialog");
      await dialog.getByRole("button", { name: "Remove author" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByText("Ada Lovelace removed.").waitFor();
      await expect(list().locator(".author-name").allTextContents()).resolves.toEqual([
        "Émile Zola",
      ]);
      await expect((await authorsNow()).map((a) => a.name)).toEqual(["Émile Zola"]);
      // The last one too: the screen is empty again, for the next width's run.
      await item("Émile Zola").getByRole("button", { name: "Remove Émile Zola" }).click();
      await page
        .getByRole("dialog", { name: "Remove Émile Zola?" })
        .getByRole("button", { name: "Remove author" })
        .click();
      await heading("No authors yet").waitFor();
      await expect(authorsNow()).resolves.toEqual([]);
    });

    it('a failed load says so with "Try again", which loads the list (dashboard/README.md, use-load.ts)', async () => {
      await s.setViewport(viewport);
      await s.owner.post(`/workspaces/${s.ws}/authors`, { name: "Octave Mirbeau" });
      s.expectProblems(/response 500 GET .*\/authors$/, /status of 500/);
      let failed = false;
      await page.route("**/api/admin/workspaces/*/authors", (route) => {
        if (failed || route.request().method() !== "GET") return route.fallback();
        failed = true;
        return route.fulfill({
          status: 500,
          contentType: "application/json",
          body: JSON.stringify({ message: "Internal server error." }),
        });
      });
      await page.reload();
      const retry = page.getByRole("alert").getByRole("button", { name: "Try again" });
      await retry.waitFor();
      await expect(page.getByRole("alert").textContent()).resolves.toContain(
        "Internal server error.",
      );
      await retry.click();
      await item("Octave Mirbeau").waitFor();
      await expect(page.getByRole("alert").count()).resolves.toBe(0);
      await page.unroute("**/api/admin/workspaces/*/authors");
      const [octave] = await authorsNow();
      const removed = await s.owner.delete(`/workspaces/${s.ws}/authors/${octave?.id}`);
      expect(removed.status).toBe(204);
    });
  });
}
