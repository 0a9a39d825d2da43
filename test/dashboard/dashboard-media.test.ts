// The Media screen and the editor's images (admin.yaml, tag Media: listMedia, uploadMedia,
// updateMedia, deleteMedia): reached from the header, empty at first; files dropped on the
// screen are uploaded and each asked its alt text; alt text edited later; the library searched
// and paged; Copy Markdown; a refused file said with the server's reason; a deletion asked
// first. In the blog editor an image pasted or dropped into the body is uploaded and its
// Markdown inserted at the cursor, and a cover is chosen from the library (or uploaded there).
// Run at 1280×800 and at 390×844, under axe, with no console error or failed request; every
// step is checked against the server's state through the admin API.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

type Media = components["schemas"]["Media"];
type Blog = components["schemas"]["AdminBlog"];

let s: DashboardSession;
let page: Page;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-dashboard-media-"));
  s = await openDashboardSession({
    shots: "dashboard-media",
    env: { DATA_DIR: dataDir, MEDIA_MAX_PIXELS: "4000000" },
  });
  page = s.page;
  page.setDefaultTimeout(10_000);
});
afterEach(async () => {
  await s.setViewport("desktop");
  await s.assertNoProblems();
});
afterAll(async () => {
  await s?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

let colour = 0;
/** A real PNG of its own bytes (each call another colour): the server tells images by bytes. */
async function png(width = 240, height = 160): Promise<Buffer> {
  colour++;
  const background = { r: (colour * 37) % 256, g: (colour * 91) % 256, b: (colour * 53) % 256 };
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

const library = async (): Promise<Media[]> =>
  (await s.owner.get<{ data: Media[] }>(`/workspaces/${s.ws}/media?limit=100`)).body.data;
async function clearLibrary(): Promise<void> {
  // `force`: blogs of earlier tests may show them (deleteMedia answers 409 otherwise).
  for (const m of await library()) {
    await s.owner.delete(`/workspaces/${s.ws}/media/${m.id}?force=true`);
  }
}
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000 });
const heading = (name: string) => page.getByRole("heading", { name, exact: true });
const grid = (): Locator => page.getByRole("list", { name: /^Images of / });
const card = (name: string): Locator =>
  grid()
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });

interface DroppedFile {
  name: string;
  type: string;
  base64: string;
}
const fileOf = (name: string, bytes: Buffer, type = "image/png"): DroppedFile => ({
  name,
  type,
  base64: bytes.toString("base64"),
});

/**
 * Drags files over `selector` and drops them, as a file manager would: dragenter, dragover and
 * drop, each carrying a DataTransfer of real File objects.
 */
async function dropFiles(selector: string, files: DroppedFile[]): Promise<void> {
  await page.evaluate(
    ({ selector, files }) => {
      const data = new DataTransfer();
      for (const f of files) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], f.name, { type: f.type }));
      }
      const target = document.querySelector(selector);
      if (!target) throw new Error(`nothing matches ${selector}`);
      for (const type of ["dragenter", "dragover", "drop"]) {
        target.dispatchEvent(
          new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }),
        );
      }
    },
    { selector, files },
  );
}

/** Pastes files into `selector`, as a screenshot copied to the clipboard is pasted. */
async function pasteFiles(selector: string, files: DroppedFile[]): Promise<void> {
  await page.evaluate(
    ({ selector, files }) => {
      const data = new DataTransfer();
      for (const f of files) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], f.name, { type: f.type }));
      }
      const target = document.querySelector(selector);
      if (!target) throw new Error(`nothing matches ${selector}`);
      target.dispatchEvent(
        new ClipboardEvent("paste", { bubbles: true, cancelable: true, clipboardData: data }),
      );
    },
    { selector, files },
  );
}

/**
 * Every image on the page that started loading has finished (none is cut off by a move). A body's
 * library images are `loading="lazy"` (README, "Media"): one below the fold, or in a preview not
 * shown (at phone width), has not started.
 */
const imagesLoaded = () =>
  eventually(() =>
    page.evaluate(() =>
      Array.from(document.images).every((img) => {
        const unseen =
          img.getClientRects().length === 0 || img.getBoundingClientRect().top > innerHeight;
        const deferred = img.loading === "lazy" && !img.complete && unseen;
        return deferred || !img.getAttribute("src") || (img.complete && img.naturalWidth > 0);
      }),
    ),
  ).toBe(true);

const WIDTHS: ViewportName[] = ["desktop", "phone"];

describe.each(WIDTHS)("the Media screen at %s width (admin.yaml, tag Media)", (width) => {
  beforeAll(clearLibrary);

  it("the header leads to it; empty, it says what the library is for", async () => {
    await s.setViewport(width);
    await page.goto(s.url(`/w/${s.ws}/blogs`));
    await heading("Blogs").waitFor();
    const nav = page.getByRole("navigation", { name: "Sections" });
    await nav.getByRole("link", { name: "Media" }).click();
    await heading("Media").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/w/${s.ws}/media`);
    await heading("No images yet").waitFor();
    await expect(
      nav.getByRole("link", { name: "Media" }).getAttribute("aria-current"),
    ).resolves.toBe("page");
    await s.checkScreen("empty");
  });

  it("two files dropped on the screen are uploaded, each asked its alt text (uploadMedia, updateMedia)", async () => {
    await s.setViewport(width);
    await dropFiles(".media-screen", [
      fileOf("Green Field.PNG", await png(300, 200)),
      fileOf("sky.png", await png(120, 240)),
    ]);
    const first = page.getByRole("dialog", { name: "Alt text for green-field.png" });
    await first.waitFor();
    await expect(first.getByText("Image 1 of 2").count()).resolves.toBe(1);
    await first.getByRole("textbox", { name: "Alt text" }).fill("A green field under a low sun");
    await s.checkScreen("alt-dialog");
    await first.getByRole("button", { name: "Save alt text" }).click();
    const second = page.getByRole("dialog", { name: "Alt text for sky.png" });
    await second.getByText("Image 2 of 2").waitFor();
    await second.getByRole("button", { name: "Skip" }).click();
    await second.waitFor({ state: "detached" });
    await page.getByText("2 images uploaded.").waitFor();

    const stored = await library();
    expect(stored.map((m) => [m.name, m.alt, m.width, m.height])).toEqual([
      ["sky.png", "", 120, 240],
      ["green-field.png", "A green field under a low sun", 300, 200],
    ]);
    // Newest first, as the server lists them.
    await expect(grid().locator(".media-name").allTextContents()).resolves.toEqual([
      "sky.png",
      "green-field.png",
    ]);
    const thumb = card("green-field.png").locator("img");
    const field = stored[1] as Media;
    await eventually(() => thumb.getAttribute("src")).toBe(`${field.url}?w=256&fm=webp`);
    await expect(thumb.getAttribute("alt")).resolves.toBe("A green field under a low sun");
    await expect(thumb.getAttribute("loading")).resolves.toBe("lazy");
    await expect(thumb.getAttribute("width")).resolves.toBe("300");
    await expect(thumb.getAttribute("height")).resolves.toBe("200");
    await eventually(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
    await expect(card("sky.png").getByText("No alt text yet.").count()).resolves.toBe(1);
    await imagesLoaded();
    await s.checkScreen("library");
  });

  it("alt text is added later from the card (updateMedia)", async () => {
    await s.setViewport(width);
    await card("sky.png").getByRole("button", { name: "Add alt text of sky.png" }).click();
    const dialog = page.getByRole("dialog", { name: "Alt text for sky.png" });
    await dialog.getByRole("textbox", { name: "Alt text" }).fill("A blue sky, no clouds");
    await dialog.getByRole("button", { name: "Save alt text" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("Alt text of sky.png saved.").waitFor();
    await expect(card("sky.png").locator(".media-alt").textContent()).resolves.toBe(
      "Alt text: A blue sky, no clouds",
    );
    const sky = (await library()).find((m) => m.name === "sky.png");
    expect(sky?.alt).toBe("A blue sky, no clouds");
  });

  it("the search finds images by words of their alt text (listMedia q)", async () => {
    await s.setViewport(width);
    const search = page.getByRole("searchbox", { name: "Search images" });
    await search.fill("sun");
    await eventually(() => grid().locator(".media-name").allTextContents()).toEqual([
      "green-field.png",
    ]);
    await search.fill("nothing-like-this");
    await heading("No image matches").waitFor();
    await search.fill("");
    await eventually(() => grid().locator(".media-name").count()).toBe(2);
    await imagesLoaded();
  });

  it("Copy Markdown puts ![alt](absolute url) on the clipboard", async () => {
    await s.setViewport(width);
    await card("green-field.png")
      .getByRole("button", { name: "Copy Markdown of green-field.png" })
      .click();
    await page.getByText("Markdown of green-field.png copied.").waitFor();
    const field = (await library()).find((m) => m.name === "green-field.png") as Media;
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(
      `![A green field under a low sun](${field.url})`,
    );
  });

  it("a file that is not an image, and one of too many pixels, are refused with the server's reason (415, 422)", async () => {
    await s.setViewport(width);
    s.expectProblems(
      /response 415 POST .*\/media\?/,
      /response 422 POST .*\/media\?/,
      /status of 4(15|22)/,
    );
    // The server closes the connection of a body it refused before reading it all, which
    // Chromium may report as an aborted request: the test relays the server's whole answer.
    await page.route(/\/media\?name=notes\.txt$/, async (route) =>
      route.fulfill({ response: await route.fetch() }),
    );
    const huge = await sharp({
      create: { width: 2100, height: 2100, channels: 3, background: "#fff" },
    })
      .png()
      .toBuffer();
    await dropFiles(".media-screen", [
      fileOf("notes.txt", Buffer.from("Just words."), "text/plain"),
      fileOf("huge.png", huge),
    ]);
    const alerts = page.getByRole("alert");
    await alerts.filter({ hasText: /^notes\.txt was not uploaded\. Not an image/ }).waitFor();
    await alerts.filter({ hasText: /^huge\.png was not uploaded\. .*4000000/ }).waitFor();
    await expect(library().then((l) => l.length)).resolves.toBe(2);
    await page.unroute(/\/media\?name=notes\.txt$/);
    await s.checkScreen("refused");
  });

  it("a deletion is asked first, Cancel focused; then the image and its URL are gone (deleteMedia)", async () => {
    await s.setViewport(width);
    const sky = (await library()).find((m) => m.name === "sky.png") as Media;
    await card("sky.png").getByRole("button", { name: "Delete sky.png" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete sky.png?" });
    await eventually(() =>
      dialog.getByRole("button", { name: "Cancel" }).evaluate((b) => b === document.activeElement),
    ).toBe(true);
    await s.checkScreen("delete-dialog");
    await dialog.getByRole("button", { name: "Delete image" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText("sky.png deleted.").waitFor();
    await expect(card("sky.png").count()).resolves.toBe(0);
    expect((await library()).map((m) => m.name)).toEqual(["green-field.png"]);
    const gone = await fetch(`${sky.url}`);
    await gone.body?.cancel();
    expect(gone.status).toBe(404);
  });

  it("an image blogs show: its deletion names them, released first, and Delete anyway deletes it (deleteMedia 409)", async () => {
    await s.setViewport(width);
    const name = `in-use-${width}.png`;
    const res = await fetch(`${s.server.url}/api/admin/workspaces/${s.ws}/media?name=${name}`, {
      method: "POST",
      headers: { "content-type": "image/png", cookie: s.owner.cookie ?? "", origin: s.server.url },
      body: new Uint8Array(await png(64, 64)),
    });
    expect(res.status).toBe(201);
    const image = (await res.json()) as Media;
    const blogs = `/workspaces/${s.ws}/blogs`;
    const draft = await s.owner.post<Blog>(blogs, {
      title: `A draft that shows it (${width})`,
      bodyMarkdown: `![A square](${image.url})`,
    });
    const released = await s.owner.post<Blog>(blogs, {
      title: `A released cover (${width})`,
      bodyMarkdown: "Text.",
      coverImageUrl: image.url,
      coverImageAlt: "A square",
    });
    await s.owner.post(`${blogs}/${released.body.id}/release`, undefined, { "if-match": "*" });
    await page.goto(s.url(`/w/${s.ws}/media`));
    // The first answer is the 409 naming the blogs, on purpose.
    s.expectProblems(/response 409 DELETE .*\/media\/med_/, /status of 409 \(Conflict\)/);
    await card(name)
      .getByRole("button", { name: `Delete ${name}` })
      .click();
    await page
      .getByRole("dialog", { name: `Delete ${name}?` })
      .getByRole("button", { name: "Delete image" })
      .click();
    const asked = page.getByRole("dialog", { name: `${name} is in use` });
    await asked.getByText("2 blogs show this image.").waitFor();
    const named = asked.getByRole("list", { name: `Blogs that show ${name}` }).getByRole("link");
    await expect(named.allInnerTexts()).resolves.toEqual([
      `A released cover (${width})`,
      `A draft that shows it (${width})`,
    ]);
    await expect(named.first().getAttribute("href")).resolves.toMatch(
      new RegExp(`/w/${s.ws}/blogs/${released.body.id}$`),
    );
    await eventually(() =>
      asked.getByRole("button", { name: "Cancel" }).evaluate((b) => b === document.activeElement),
    ).toBe(true);
    // Still there: nothing is deleted before the second answer.
    expect((await library()).some((m) => m.id === image.id)).toBe(true);
    await s.checkScreen("in-use-dialog");
    await asked.getByRole("button", { name: "Delete anyway" }).click();
    await asked.waitFor({ state: "detached" });
    await page.getByText(`${name} deleted.`).waitFor();
    expect((await library()).some((m) => m.id === image.id)).toBe(false);
    await s.owner.delete(`${blogs}/${draft.body.id}`, { "if-match": "*" });
    await s.owner.delete(`${blogs}/${released.body.id}`, { "if-match": "*" });
  });
});

describe("a long library (listMedia cursor)", () => {
  it("shows 24 images, and Load more the rest", async () => {
    await clearLibrary();
    for (let i = 0; i < 26; i++) {
      const res = await fetch(
        `${s.server.url}/api/admin/workspaces/${s.ws}/media?name=many-${i}.png`,
        {
          method: "POST",
          headers: {
            "content-type": "image/png",
            cookie: s.owner.cookie ?? "",
            origin: s.server.url,
          },
          body: new Uint8Array(await png(64, 64)),
        },
      );
      expect(res.status).toBe(201);
      await res.body?.cancel();
    }
    await page.goto(s.url(`/w/${s.ws}/media`));
    await eventually(() => grid().getByRole("listitem").count()).toBe(24);
    await expect(grid().locator(".media-name").first().textContent()).resolves.toBe("many-25.png");
    await page.getByRole("button", { name: "Load more" }).click();
    await eventually(() => grid().getByRole("listitem").count()).toBe(26);
    await expect(grid().locator(".media-name").last().textContent()).resolves.toBe("many-0.png");
    await page.getByText("2 more images: 26 shown.").waitFor();
    await expect(page.getByRole("button", { name: "Load more" }).count()).resolves.toBe(0);
    await imagesLoaded();
    // Thumbnails are asked for once near the screen (300 px) and a slot is free
    // (dashboard/src/features/media/thumbnail.tsx): one still queued would start loading later
    // and be cut off by the next test's navigation. Every one near the screen loaded, none is
    // left to start.
    await eventually(() =>
      grid()
        .locator("img")
        .evaluateAll((images) =>
          images.every((image) => {
            const img = image as HTMLImageElement;
            const { top, bottom } = img.getBoundingClientRect();
            const near = bottom > -300 && top < innerHeight + 300;
            return (
              !near || (img.getAttribute("src") !== null && img.complete && img.naturalWidth > 0)
            );
          }),
        ),
    ).toBe(true);
  });
});

let blogs = 0;
/** A draft made through the admin API, with a title unique to this file. */
async function makeBlog(bodyMarkdown: string): Promise<Blog> {
  blogs++;
  const res = await s.owner.post<Blog>(`/workspaces/${s.ws}/blogs`, {
    title: `Media blog ${blogs}`,
    bodyMarkdown,
  });
  expect(res.status).toBe(201);
  return res.body;
}
const adminBlog = async (id: string) =>
  (await s.owner.get<Blog>(`/workspaces/${s.ws}/blogs/${id}`)).body;
async function openEditor(blog: Blog): Promise<void> {
  await page.goto(s.url(`/w/${s.ws}/blogs/${blog.id}`));
  await heading("Edit blog").waitFor();
  await eventually(() => page.getByLabel("Title", { exact: true }).inputValue()).toBe(blog.title);
}
const body = () => page.getByLabel("Body (Markdown)");
async function save(): Promise<void> {
  await page.locator(".editor-bar").getByRole("button", { name: "Save", exact: true }).click();
  await page.locator(".editor-bar").getByText("Saved.", { exact: true }).waitFor();
}
const BODY = "textarea.mono";

describe.each(WIDTHS)("images in the blog editor at %s width", (width) => {
  it("an image pasted into the body is uploaded and its Markdown put at the cursor, alt text to type", async () => {
    await s.setViewport(width);
    const blog = await makeBlog("Before. After.");
    await openEditor(blog);
    await body().click();
    await body().evaluate((area: HTMLTextAreaElement) => area.setSelectionRange(8, 8));
    await pasteFiles(BODY, [fileOf("", await png(200, 100))]);
    await page
      .getByText("Image inserted: type what the image shows between the brackets.")
      .waitFor();
    const pasted = (await library())[0] as Media;
    expect(pasted).toMatchObject({ name: "pasted-image.png", alt: "", width: 200, height: 100 });
    const url = `${pasted.url}`;
    await expect(body().inputValue()).resolves.toBe(`Before. ![](${url})After.`);
    // The cursor is between the brackets: what is typed next is the alt text.
    await page.keyboard.type(`A ${width} chart`);
    await expect(body().inputValue()).resolves.toBe(`Before. ![A ${width} chart](${url})After.`);
    await save();
    expect((await adminBlog(blog.id)).bodyMarkdown).toBe(
      `Before. ![A ${width} chart](${url})After.`,
    );
    await imagesLoaded();
  });

  it("an image dropped on the body is uploaded and inserted; a dropped text file is not", async () => {
    await s.setViewport(width);
    const blog = await makeBlog("Text.");
    await openEditor(blog);
    await body().click();
    await page.keyboard.press("End");
    const before = (await library()).length;
    await dropFiles(BODY, [fileOf("notes.txt", Buffer.from("words"), "text/plain")]);
    await dropFiles(BODY, [fileOf("Dropped Diagram.png", await png(90, 60))]);
    await page.getByText(/^Image inserted/).waitFor();
    const stored = await library();
    expect(stored.length).toBe(before + 1);
    const dropped = stored[0] as Media;
    expect(dropped.name).toBe("dropped-diagram.png");
    await expect(body().inputValue()).resolves.toBe(`Text.![](${dropped.url})`);
    await save();
    expect((await adminBlog(blog.id)).bodyMarkdown).toBe(`Text.![](${dropped.url})`);
    await imagesLoaded();
  });

  it("a cover is chosen from the library: its URL and alt text become the cover's", async () => {
    await s.setViewport(width);
    const harbour = await fetch(
      `${s.server.url}/api/admin/workspaces/${s.ws}/media?name=harbour-${width}.png&alt=${encodeURIComponent("A harbour at dawn")}`,
      {
        method: "POST",
        headers: {
          "content-type": "image/png",
          cookie: s.owner.cookie ?? "",
          origin: s.server.url,
        },
        body: new Uint8Array(await png(320, 180)),
      },
    );
    expect(harbour.status).toBe(201);
    const cover = (await harbour.json()) as Media;
    const blog = await makeBlog("Words.");
    await openEditor(blog);
    await page.getByRole("button", { name: "Choose from library" }).click();
    const picker = page.getByRole("dialog", { name: "Choose a cover image" });
    await picker.getByRole("searchbox", { name: "Search images" }).fill(`harbour-${width}`);
    const choice = picker.getByRole("button", { name: `Choose harbour-${width}.png` });
    await eventually(() => picker.locator(".pick-button").count()).toBe(1);
    await imagesLoaded();
    await s.checkScreen("cover-picker");
    await choice.click();
    await picker.waitFor({ state: "detached" });
    await expect(page.getByLabel("Cover image URL").inputValue()).resolves.toBe(`${cover.url}`);
    await expect(page.getByLabel("Alt text", { exact: true }).inputValue()).resolves.toBe(
      "A harbour at dawn",
    );
    await save();
    expect(await adminBlog(blog.id)).toMatchObject({
      coverImageUrl: `${cover.url}`,
      coverImageAlt: "A harbour at dawn",
    });
  });

  it("a cover uploaded from the picker is asked its alt text, then chosen", async () => {
    await s.setViewport(width);
    const blog = await makeBlog("Words.");
    await openEditor(blog);
    await page.getByRole("button", { name: "Choose from library" }).click();
    const picker = page.getByRole("dialog", { name: "Choose a cover image" });
    await picker.getByRole("button", { name: "Upload image" }).waitFor();
    await picker.locator('input[type="file"]').setInputFiles({
      name: `Lighthouse ${width}.png`,
      mimeType: "image/png",
      buffer: await png(150, 300),
    });
    const alt = page.getByRole("dialog", { name: `Alt text for lighthouse-${width}.png` });
    await alt.getByRole("textbox", { name: "Alt text" }).fill("A lighthouse in fog");
    await alt.getByRole("button", { name: "Save alt text" }).click();
    await picker.waitFor({ state: "detached" });
    const stored = (await library()).find((m) => m.name === `lighthouse-${width}.png`);
    expect(stored?.alt).toBe("A lighthouse in fog");
    await expect(page.getByLabel("Cover image URL").inputValue()).resolves.toBe(`${stored?.url}`);
    await expect(page.getByLabel("Alt text", { exact: true }).inputValue()).resolves.toBe(
      "A lighthouse in fog",
    );
    await save();
    expect((await adminBlog(blog.id)).coverImageAlt).toBe("A lighthouse in fog");
  });
});
