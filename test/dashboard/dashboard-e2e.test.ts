import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { launchChromium } from "../support/chromium.js";
import { seriousViolations } from "../support/dashboard-axe.js";
import { newestFileTime } from "../support/dashboard-build.js";
import { type PageProblems, watchPageProblems } from "../support/page-problems.js";
import { useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// The whole dashboard, end to end, in headless Chromium against the real server and database:
// each step below builds on the one before it, like a new owner's first session.

const DIST_INDEX = "dashboard/dist/index.html";
const SHOTS = "test-output/dashboard";
const OWNER = {
  name: "Ada Editor",
  email: "ada@example.com",
  password: "correct horse battery staple",
  workspaceName: "Acme Newsroom",
};
const BLOG = {
  title: "We shipped the new reader",
  tags: "product, launch",
  body: "## What changed\n\nThe reader is **faster** and *calmer*. Read [the notes](https://example.com/notes).\n\n- offline mode\n- dark mode\n\n![The new reader](http://images.pressroom.test/reader.png)\n\n<script>alert(1)</script>",
};
/** Answers the image of BLOG.body (a plain-http URL, as the sanitiser allows) with a 1×1 PNG. */
const IMAGE_HOST = "http://images.pressroom.test/";
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const KEY_NAME = "Marketing website";

/** The admin spec, read here on its own: the forms' limits must be its own. */
const ADMIN_SPEC: unknown = parse(readFileSync("openapi/admin.yaml", "utf8"));
/** The node of ADMIN_SPEC at a JSON pointer (its parts unescaped), else `{}`. */
const specAt = (...parts: string[]): Record<string, unknown> => {
  const node = parts.reduce<unknown>(
    (at, part) =>
      typeof at === "object" && at !== null ? (at as Record<string, unknown>)[part] : undefined,
    ADMIN_SPEC,
  );
  return typeof node === "object" && node !== null ? (node as Record<string, unknown>) : {};
};

let server: TestServer;
let browser: BrowserContext;
let page: Page;
let secret = "";
const outsideRequests: string[] = [];

/** The page's problems (support/page-problems.ts): after every step, exactly those it declared
 * (README, "First run": a first visit, sign-in and every screen raise none). */
let problems: PageProblems;
const expectProblems = (...patterns: RegExp[]) => problems.expectProblems(...patterns);
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A call the page makes on purpose that the server answers with `status`, as the page sees it. */
const failedCall = (method: string, path: string | RegExp, status: number): RegExp[] => {
  const url = escapeRe(server.url) + (typeof path === "string" ? escapeRe(path) : path.source);
  return [
    new RegExp(`^response ${status} ${method} ${url}$`),
    new RegExp(`^console\\.error Failed to load resource: .*status of ${status}\\b.* at ${url}$`),
  ];
};
const PREVIEW_PATH = /\/api\/admin\/workspaces\/ws_[A-Za-z0-9]+\/blogs\/preview/;
const isPreview = (url: string) => new RegExp(`${PREVIEW_PATH.source}$`).test(url);

beforeAll(async () => {
  if (!existsSync(DIST_INDEX)) {
    throw new Error(
      `${DIST_INDEX} is missing: build the dashboard first (npm run build -w dashboard, or the root npm run build).`,
    );
  }
  if (newestFileTime("dashboard/src") > statSync(DIST_INDEX).mtimeMs) {
    throw new Error(
      `${DIST_INDEX} is older than dashboard/src: rebuild it (npm run build -w dashboard).`,
    );
  }
  server = await startTestServer((await useTestDb()).db, { LAST_USED_FLUSH_MS: "100" });
  browser = await launchChromium();
  await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  page = await browser.newPage();
  await page.setViewportSize({ width: 1280, height: 860 });
  problems = watchPageProblems(page);
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url)) return route.continue();
    // The image a blog's body names (content, not the dashboard's own), answered here.
    if (url.startsWith(IMAGE_HOST)) {
      return route.fulfill({ status: 200, contentType: "image/png", body: PIXEL_PNG });
    }
    outsideRequests.push(url);
    return route.abort();
  });
  await mkdir(SHOTS, { recursive: true });
});
afterEach(() => problems.assertNoProblems());
afterAll(async () => {
  await browser?.close();
});

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
const heading = (name: string) => page.getByRole("heading", { name, exact: true });
const keyRow = (name: string): Locator => page.locator("tbody tr", { hasText: name });

async function expectAccessible(screen: string) {
  const serious = await seriousViolations(page);
  expect(
    serious,
    `axe found serious or critical violations on ${screen}:\n${serious.join("\n")}`,
  ).toEqual([]);
}

/** A field of a schema in admin.yaml. */
const specField = (schema: string, field: string): Record<string, unknown> =>
  specAt("components", "schemas", schema, "properties", field);

/** The control labelled `label` carries each of `attributes` with the spec field's value. */
async function expectSpecLimits(
  label: string,
  spec: Record<string, unknown>,
  attributes: ("maxLength" | "minLength" | "pattern")[] = ["maxLength"],
) {
  const control = page.getByLabel(label, { exact: true });
  for (const attribute of attributes) {
    expect(spec[attribute], `admin.yaml's field for ${label} has a ${attribute}`).toBeDefined();
    await expect(control.getAttribute(attribute.toLowerCase()), label).resolves.toBe(
      String(spec[attribute]),
    );
  }
}

async function consumerList(key: string) {
  const res = await fetch(`${server.url}/api/consumer/blogs`, { headers: { "x-api-key": key } });
  return { status: res.status, body: (await res.json()) as { data?: { title: string }[] } };
}

describe("dashboard, end to end in Chromium", () => {
  it("a first visit to /dashboard shows the first-run setup form", async () => {
    const res = await page.goto(`${server.url}/dashboard`);
    expect(res?.status()).toBe(200);
    await heading("Welcome to Pressroom").waitFor();
    for (const label of ["Your name", "Email", "Password", "Workspace name"]) {
      await expect(page.getByLabel(label, { exact: true }).count()).resolves.toBe(1);
    }
    const password = specField("SetupRequest", "password");
    await expectSpecLimits("Your name", specField("SetupRequest", "name"));
    await expectSpecLimits("Email", specField("SetupRequest", "email"));
    await expectSpecLimits("Password", password, ["minLength", "maxLength"]);
    await expectSpecLimits("Workspace name", specField("SetupRequest", "workspaceName"));
    await page.getByText(`At least ${password.minLength} characters.`, { exact: false }).waitFor();
    await shot("01-setup");
    await expectAccessible("the setup screen");
  });

  it("setup creates the owner and the first workspace, signs in and opens its blogs; its API keys have none yet", async () => {
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByLabel("Workspace name").fill(OWNER.workspaceName);
    await page.getByRole("button", { name: "Create account and workspace" }).click();
    // The workspace opens on Blogs, for everyone (router.ts, shell.tsx).
    await heading("Blogs").waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/dashboard\/w\/[^/]+\/blogs$/);
    await page.getByRole("link", { name: "API keys" }).click();
    await heading("API keys").waitFor();
    await expect(
      page.getByRole("button", { name: /^Workspace: / }).textContent(),
    ).resolves.toContain(OWNER.workspaceName);
    await page.getByText("No keys yet").waitFor();
  });

  it("signing out leads to sign-in; a wrong password is refused; the right one signs back in", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await heading("Sign in").waitFor();
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toBe("Wrong email or password.");
    expectProblems(...failedCall("POST", "/api/admin/session", 401));
    await shot("02-sign-in");
    await expectAccessible("the sign-in screen");
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await heading("API keys").waitFor(); // the screen it was signed out on
  });

  it("the editor previews the body as the server renders it, sanitised, the latest typing winning", async () => {
    await page.getByRole("link", { name: "Blogs" }).click();
    await heading("Blogs").waitFor();
    await page.getByRole("link", { name: "New blog" }).click();
    await heading("New blog").waitFor();
    await expectSpecLimits("Title", specField("BlogInput", "title"));
    await expectSpecLimits("Slug", specField("BlogInput", "slug"), ["maxLength", "pattern"]);
    await expectSpecLimits("Author", specField("BlogInput", "authorName"));
    await expectSpecLimits("Excerpt", specField("BlogInput", "excerpt"));
    await expectSpecLimits("Body (Markdown)", specField("BlogInput", "bodyMarkdown"));
    await page.getByLabel("Title", { exact: true }).fill(BLOG.title);
    // Tags are committed in the normal form the server stores (openapi.yaml, "Tags"), shown
    // as soon as the field is left; one that cannot be stored is named, and the field kept.
    const tagsField = page.getByLabel("Tags");
    await tagsField.fill("ok, zero\u200bwidth");
    await tagsField.blur();
    await page
      .getByText(/Tag "zeroU\+200Bwidth" contains a control or invisible character/)
      .waitFor();
    await expect(tagsField.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(tagsField.inputValue()).resolves.toBe("ok, zero\u200bwidth");
    await tagsField.fill("Product,  ＬＡＵＮＣＨ , product");
    await tagsField.blur();
    await expect.poll(() => tagsField.inputValue()).toBe(BLOG.tags);
    await expect(tagsField.getAttribute("aria-invalid")).resolves.toBeNull();
    const body = page.getByLabel("Body (Markdown)");
    const preview = page.locator(".preview .prose");

    // The answer for older text comes late: it must not replace the newer text's preview.
    let held = 0;
    await page.route(PREVIEW_PATH, async (route) => {
      if (held++ === 0) await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {}); // the page may have cancelled it meanwhile
    });
    const stale = page.waitForRequest((r) => isPreview(r.url()));
    await body.fill("# Stale heading");
    await stale;
    const final = page.waitForResponse((r) => isPreview(r.url()) && r.status() === 200);
    await body.fill(BLOG.body);
    expect((await final).request().postDataJSON()).toEqual({ bodyMarkdown: BLOG.body });
    await expect(preview.locator("h2").textContent()).resolves.toBe("What changed");
    await page.waitForTimeout(1600); // past the held answer
    await page.unroute(PREVIEW_PATH);
    await expect(preview.locator("h1").count()).resolves.toBe(0);
    await expect(preview.locator("h2").textContent()).resolves.toBe("What changed");

    // The server's sanitiser: the link gets its rel, the script is gone, text and all.
    await expect(preview.locator("strong").textContent()).resolves.toBe("faster");
    const link = preview.locator("a");
    await expect(link.getAttribute("href")).resolves.toBe("https://example.com/notes");
    await expect(link.getAttribute("rel")).resolves.toBe("noopener noreferrer nofollow");
    await expect(preview.locator("script").count()).resolves.toBe(0);
    await expect(preview.textContent()).resolves.not.toContain("alert(1)");
    // An http image, which the sanitiser keeps for consumers, shows in the preview too (the
    // dashboard's CSP allows it): the editor sees what consumers will get.
    const image = preview.locator("img");
    await expect(image.getAttribute("src")).resolves.toBe(`${IMAGE_HOST}reader.png`);
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(1);
    const previewHtml = await preview.innerHTML();
    await shot("03-editor");
    await expectAccessible("the blog editor");

    // What was previewed is what the save stored, for consumers.
    const created = page.waitForResponse(
      (r) => r.request().method() === "POST" && /\/blogs$/.test(new URL(r.url()).pathname),
    );
    await page.getByRole("button", { name: "Save and release" }).click();
    const saved = (await (await created).json()) as { bodyHtml: string; tags: string[] };
    // Saved as a draft, then asked: the first release names where consumers will find it.
    await page.getByRole("dialog").getByRole("button", { name: "Release" }).click();
    expect(saved.tags).toEqual(BLOG.tags.split(", "));
    // Compared as the browser serialises it (`<img …>` for the server's `<img … />`).
    const savedAsDom = await page.evaluate((html) => {
      const template = document.createElement("template");
      template.innerHTML = html;
      return template.innerHTML;
    }, saved.bodyHtml);
    expect(savedAsDom).toBe(previewHtml);
    await page.getByText("Released: consumers can read it now.").waitFor();
    expect(new URL(page.url()).pathname).toMatch(/\/blogs\/[^/]+$/);
    await expect(page.getByText("Released", { exact: true }).count()).resolves.toBeGreaterThan(0);
  });

  it("the preview says calmly why it cannot show a body (422, 503, no server), and recovers", async () => {
    const body = page.getByLabel("Body (Markdown)");
    const preview = page.locator(".preview .prose");
    const problem = page.locator(".preview [role=status]");

    await body.fill(`Intro\n\n${"> ".repeat(33)}deep`);
    await problem.getByText("This body cannot be rendered").waitFor();
    await expect(problem.textContent()).resolves.toContain("more than 32 levels deep (line 3)");
    expectProblems(...failedCall("POST", PREVIEW_PATH, 422));
    await shot("03b-editor-preview-refused");
    await expectAccessible("the editor with a refused preview");

    await page.route(PREVIEW_PATH, (route) =>
      route.fulfill({
        status: 503,
        headers: { "retry-after": "1" },
        contentType: "application/json",
        body: JSON.stringify({
          message: "The server is busy rendering other blogs; retry shortly.",
        }),
      }),
    );
    await body.fill("Busy *now*");
    await problem.getByText("The server is busy").waitFor();
    expectProblems(...failedCall("POST", PREVIEW_PATH, 503));
    await page.unroute(PREVIEW_PATH);
    // It asks again after Retry-After, by itself.
    await preview.locator("em", { hasText: "now" }).waitFor();
    await expect(problem.textContent()).resolves.toBe("");

    await page.route(PREVIEW_PATH, (route) => route.abort("failed"));
    await body.fill("Offline *again*");
    await problem.getByText("the server could not be reached").waitFor();
    expectProblems(
      new RegExp(
        `^requestfailed POST ${escapeRe(server.url)}${PREVIEW_PATH.source} net::ERR_FAILED$`,
      ),
      new RegExp(
        `^console\\.error Failed to load resource: net::ERR_FAILED at ${escapeRe(server.url)}${PREVIEW_PATH.source}$`,
      ),
    );
    await page.unroute(PREVIEW_PATH);

    // Back to the saved body: its HTML is the saved one, with no request at all.
    let asked = 0;
    const count = (r: { url(): string }) => {
      if (isPreview(r.url())) asked++;
    };
    page.on("request", count);
    await body.fill(BLOG.body);
    await preview.locator("h2", { hasText: "What changed" }).waitFor();
    await expect(problem.textContent()).resolves.toBe("");
    await page.getByText("No unsaved changes.").waitFor();
    await page.waitForTimeout(500);
    page.off("request", count);
    expect(asked).toBe(0);
  });

  it("a reload signs in from the session cookie with one 200 probe and shows the saved preview", async () => {
    const probes: number[] = [];
    const record = (r: { url(): string; status(): number }) => {
      if (r.url().endsWith("/api/admin/session")) probes.push(r.status());
    };
    page.on("response", record);
    await page.reload();
    await page.getByLabel("Title", { exact: true }).waitFor();
    await expect(page.getByLabel("Title", { exact: true }).inputValue()).resolves.toBe(BLOG.title);
    await page.locator(".preview .prose h2", { hasText: "What changed" }).waitFor();
    page.off("response", record);
    expect(probes).toEqual([200]);
  });

  it("a save the server refuses shows its message and keeps what was typed", async () => {
    const title = page.getByLabel("Title", { exact: true });
    const refused = `${BLOG.title} \u202E`; // admin.yaml: no bidi overrides in a title
    await title.fill(refused);
    // A released blog's save keeps the changes pending (until published), and its button says so.
    await page.getByRole("button", { name: "Save changes" }).click();
    // The refusal names the title: it is shown under the Title field, which takes the focus.
    await expect.poll(() => title.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await title.getAttribute("aria-describedby")) ?? "";
    await expect(
      page.locator(`[id="${describedBy.split(" ")[0]}"]`).textContent(),
    ).resolves.toContain("title");
    await expect(page.getByRole("alert").textContent()).resolves.toContain("Not saved");
    expectProblems(...failedCall("PATCH", /\/api\/admin\/workspaces\/[^/]+\/blogs\/[^/]+/, 400));
    await expect(title.inputValue()).resolves.toBe(refused);
    await expect(page.locator("form.editor").getAttribute("aria-busy")).resolves.toBe("false");
    // Typed back as it was saved: nothing to send, and the save says so.
    await title.fill(BLOG.title);
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Saved.", { exact: true }).waitFor();
    await expect(page.getByRole("alert").count()).resolves.toBe(0);
  });

  it("the blogs list shows the blog under the Released filter and not under Drafts", async () => {
    await page.getByRole("link", { name: "← All blogs" }).click();
    await heading("Blogs").waitFor();
    await page.getByRole("link", { name: BLOG.title }).waitFor();
    await page.getByText("Drafts", { exact: true }).click();
    await page.getByText("No drafts.").waitFor();
    expect(new URL(page.url()).search).toBe("?status=draft");
    await page.getByText("Released", { exact: true }).first().click();
    await page.getByRole("link", { name: BLOG.title }).waitFor();
    await shot("04-blogs");
    await expectAccessible("the blogs list");
  });

  it("an address that names no screen shows “Page not found”, and leads back", async () => {
    const res = await page.goto(`${server.url}/dashboard/nowhere/at/all`);
    expect(res?.status()).toBe(200);
    await heading("Page not found").waitFor();
    await shot("04b-not-found");
    await expectAccessible("the not-found screen");
    await page.getByRole("link", { name: "Go to the dashboard" }).click();
    await heading("Blogs").waitFor();
  });

  it("the mint dialog is keyboard-operable: focus starts in it, and Escape closes it", async () => {
    // From another screen, so that the shell's move of focus to the new screen's heading (an
    // effect that runs after the screen is painted) surely happens, and is waited for: else it
    // can land after the focus below (taking it, or becoming the element the dialog returns
    // focus to). The test before this one may leave the API keys screen open already.
    await page.getByRole("link", { name: "Members" }).click();
    await expect
      .poll(() => heading("Members").evaluate((el) => el === document.activeElement))
      .toBe(true);
    await page.getByRole("link", { name: "API keys" }).click();
    await expect
      .poll(() => heading("API keys").evaluate((el) => el === document.activeElement))
      .toBe(true);
    const mint = page.getByRole("button", { name: "Mint key" });
    await mint.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Mint an API key" });
    await dialog.waitFor();
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe(
      await page.getByLabel("Key name").getAttribute("id"),
    );
    await expectSpecLimits(
      "Key name",
      specAt(
        ...["paths", "/workspaces/{workspaceId}/keys", "post", "requestBody", "content"],
        ...["application/json", "schema", "properties", "name"],
      ),
    );
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect(mint.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
  });

  it("minting shows the raw key once, with a Copy button and a warning that it will not be shown again", async () => {
    await page.getByRole("button", { name: "Mint key" }).click();
    await page.getByLabel("Key name").fill(KEY_NAME);
    await page.getByRole("dialog").getByRole("button", { name: "Mint key" }).click();
    const dialog = page.getByRole("dialog", { name: "Copy your new key now" });
    await dialog.waitFor();
    secret = await page.getByLabel(`API key “${KEY_NAME}”`).inputValue();
    expect(secret).toMatch(/^cp_live_/);
    await expect(dialog.textContent()).resolves.toContain("This key will not be shown again.");
    await dialog.getByRole("button", { name: `Copy API key “${KEY_NAME}”` }).click();
    await dialog.getByText("Copied to the clipboard.").waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
    await shot("05-mint-dialog");
    await expectAccessible("the mint dialog");
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect(page.getByText(secret).count()).resolves.toBe(0);
    await expect(keyRow(KEY_NAME).locator(".prefix").textContent()).resolves.toBe(
      `${secret.slice(0, 12)}…`,
    );
    await expect(keyRow(KEY_NAME).locator("td.last-used").textContent()).resolves.toBe("never");
  });

  it("the consumer API accepts the minted key and lists the released blog", async () => {
    const res = await consumerList(secret);
    expect(res.status).toBe(200);
    expect(res.body.data?.map((b) => b.title)).toEqual([BLOG.title]);
  });

  it("the keys table moves “last used” from never to just now, without a reload", async () => {
    await page.evaluate(() => Object.assign(window, { pressroomTestMarker: true }));
    await expect
      .poll(() => keyRow(KEY_NAME).locator("td.last-used").textContent(), {
        timeout: 25_000,
        interval: 500,
      })
      .toMatch(/^(just now|\d+ seconds ago)$/);
    await expect(page.evaluate(() => "pressroomTestMarker" in window)).resolves.toBe(true);
    const time = keyRow(KEY_NAME).locator("td.last-used time");
    await expect(time.getAttribute("datetime")).resolves.toMatch(/^\d{4}-\d\d-\d\dT/);
    await expect(time.getAttribute("title")).resolves.toMatch(/\d/);
    await shot("06-keys");
    await expectAccessible("the keys screen");
  }, 40_000);

  it("at phone width (390 px) the keys screen fits without sideways scrolling", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(
      page.evaluate(() => document.documentElement.scrollWidth),
    ).resolves.toBeLessThanOrEqual(390);
    await expect(
      keyRow(KEY_NAME)
        .getByRole("button", { name: `Actions for ${KEY_NAME}` })
        .isVisible(),
    ).resolves.toBe(true);
    await shot("07-keys-phone");
    await expectAccessible("the keys screen at phone width");
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("revoking (in the key's Actions menu) asks for a confirmation naming the key, then lists the key as revoked", async () => {
    await keyRow(KEY_NAME)
      .getByRole("button", { name: `Actions for ${KEY_NAME}` })
      .click();
    await page.getByRole("menuitem", { name: "Revoke key" }).click();
    const dialog = page.getByRole("dialog", { name: `Revoke “${KEY_NAME}”?` });
    await dialog.waitFor();
    await shot("08-revoke-confirmation");
    await expectAccessible("the revoke confirmation");
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await dialog.waitFor({ state: "detached" });
    // Revoked keys are folded away under "Show N revoked".
    await page.getByRole("button", { name: "Show 1 revoked" }).click();
    await keyRow(KEY_NAME).locator(".badge", { hasText: "Revoked" }).waitFor();
    await expect(keyRow(KEY_NAME).locator("td.status").textContent()).resolves.toMatch(
      /revoked (just now|\d+ seconds ago) by Ada Editor/,
    );
    // No action on a revoked key: its menu's one item opens its usage (which stays readable).
    await keyRow(KEY_NAME)
      .getByRole("button", { name: `Actions for ${KEY_NAME}` })
      .click();
    await page.getByRole("menu").waitFor();
    await expect(page.getByRole("menuitem").allTextContents()).resolves.toEqual(["View usage"]);
    await page.keyboard.press("Escape");
  });

  it("the next consumer call with the revoked key gets 401", async () => {
    const res = await consumerList(secret);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Invalid or missing API key." });
  });

  it("a new workspace opens on its own empty blogs, and has no keys", async () => {
    await page.getByRole("button", { name: /^Workspace: / }).click();
    await page.getByRole("menuitem", { name: "Create workspace" }).click();
    const dialog = page.getByRole("dialog", { name: "New workspace" });
    await dialog.waitFor();
    await expectAccessible("the new-workspace dialog");
    await expectSpecLimits("Workspace name", specField("WorkspaceInput", "name"));
    // A name the server refuses: its message shows on the field, and the name stays as typed.
    await dialog.getByLabel("Workspace name").fill("Second desk\u202E");
    await dialog.getByRole("button", { name: "Create workspace" }).click();
    await dialog.locator('input[aria-invalid="true"] ~ .field-error').waitFor();
    expectProblems(...failedCall("POST", "/api/admin/workspaces", 400));
    await expect(dialog.getByLabel("Workspace name").inputValue()).resolves.toBe(
      "Second desk\u202E",
    );
    await dialog.getByRole("button", { name: "Create workspace" }).waitFor();
    await dialog.getByLabel("Workspace name").fill("Second desk");
    await dialog.getByRole("button", { name: "Create workspace" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("link", { name: "Write your first blog" }).waitFor();
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByText("No keys yet").waitFor();
    await expect(
      page.getByRole("button", { name: /^Workspace: / }).textContent(),
    ).resolves.toContain("Second desk");
  });

  it("repeated failed sign-ins show the throttle's wait from Retry-After and hold the button", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await heading("Sign in").waitFor();
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("guess-guess-guess");
    const alert = page.getByRole("alert");
    const attempt = async () => {
      const answered = page.waitForResponse((r) => r.url().endsWith("/api/admin/session"));
      await page.getByRole("button", { name: "Sign in" }).click();
      return (await answered).status();
    };
    const statuses: number[] = [];
    while (statuses.length < 10 && statuses.at(-1) !== 429) statuses.push(await attempt());
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expectProblems(
      ...failedCall("POST", "/api/admin/session", 401),
      ...failedCall("POST", "/api/admin/session", 429),
    );
    await alert.filter({ hasText: "Too many attempts" }).waitFor();
    await expect(alert.textContent()).resolves.toMatch(/try again in \d+ (s|min)\.$/);
    await expect(page.getByRole("button", { name: /^Try again in / }).isDisabled()).resolves.toBe(
      true,
    );
    await shot("09-sign-in-throttled");
    await expectAccessible("the throttled sign-in screen");
  });

  it("the page asked nothing of other origins (but the image a blog's body names)", () => {
    expect(outsideRequests).toEqual([]);
  });
});
