import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../sdk/src/index.js";
import { ANY_VERSION } from "../support/admin-client.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

// Preview on the team's own site (openapi.yaml, "Preview"; dashboard/README.md, "Preview"): the
// owner sets the preview URL on the keys screen (refused without {token}, on its field) and
// mints preview keys there; the editor's "Preview on site" opens the team's site in a new tab
// with a fresh token, and that site — a real HTTP server here, exchanging the token through the
// SDK with its live key, as sdk/examples/preview-route.ts does — renders the blog as edited. In
// headless Chromium against the real server, at 1280×800 and 390×844, axe clean.

interface Blog {
  id: string;
  title: string;
  version: string;
}

let s: DashboardSession;
let page: Page;
let site: Server;
let siteUrl = "";
let liveKey = "";

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-preview" });
  page = s.page;
  page.setDefaultTimeout(10_000);
  liveKey = (
    await s.owner.post<{ secret: string }>(`/workspaces/${s.ws}/keys`, { name: "Team site" })
  ).body.secret;
  // The team's site: its preview route exchanges the token with the site's live key.
  const pressroom = createClient({ apiKey: liveKey, baseUrl: s.server.url });
  site = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://site");
    const token = url.searchParams.get("token") ?? "";
    pressroom.previewLinks.exchange(token).then(
      (blog) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        const safe = blog.title.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
        res.end(`<!doctype html><title>${safe}</title><h1>${safe}</h1>`);
      },
      (error: Error) => {
        res.writeHead(400, { "content-type": "text/plain" });
        res.end(error.message);
      },
    );
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await s.setViewport("desktop");
  await s.assertNoProblems();
});
afterAll(async () => {
  site?.close();
  await s?.close();
});

const setPreviewUrl = (previewUrl: string | null) =>
  s.owner.call("PUT", `/workspaces/${s.ws}/preview-url`, { previewUrl });

let made = 0;
async function releasedWithPendingChanges(): Promise<Blog> {
  made++;
  const created = await s.owner.post<Blog>(`/workspaces/${s.ws}/blogs`, {
    title: `Live title ${made}`,
    bodyMarkdown: "Words.",
  });
  const path = `/workspaces/${s.ws}/blogs/${created.body.id}`;
  await s.owner.post(`${path}/release`, undefined, ANY_VERSION);
  const staged = await s.owner.patch<Blog>(path, { title: `Pending title ${made}` }, ANY_VERSION);
  expect(staged.status).toBe(200);
  return staged.body;
}

const WIDTHS: ViewportName[] = ["desktop", "phone"];

describe.each(WIDTHS)("at %s width", (width) => {
  it("the owner sets the preview URL on the keys screen; one without {token} is refused on its field", async () => {
    await setPreviewUrl(null);
    await s.setViewport(width);
    await page.goto(s.url(`/w/${s.ws}/keys`));
    const card = page.getByRole("region", { name: "Preview on your site" });
    const field = card.getByLabel("Preview URL");
    await field.fill(`${siteUrl}/preview?slug={slug}`);
    await card.getByRole("button", { name: "Save preview URL" }).click();
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => card.locator(".field-error").textContent()).toContain("{token}");
    expect(
      (await s.owner.get<{ workspaces: { previewUrl: string | null }[] }>("/me")).body.workspaces[0]
        ?.previewUrl,
    ).toBeNull();

    await field.fill(`${siteUrl}/preview?slug={slug}&token={token}`);
    await card.getByRole("button", { name: "Save preview URL" }).click();
    await page.getByText("Saved: preview links are on.").waitFor();
    await page.getByText("Fern Owner changed where preview links go").first().waitFor();
    await s.checkScreen(`keys-preview-url-${width}`);
  });

  it("an owner mints a preview key: cp_preview_…, marked Preview in the list", async () => {
    await s.setViewport(width);
    await page.goto(s.url(`/w/${s.ws}/keys`));
    await page.getByRole("button", { name: "Mint key" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Mint an API key" });
    await dialog.getByLabel("Key name").fill(`Preview deployment ${width}`);
    await dialog.getByText("Preview", { exact: true }).click();
    await dialog.getByText(/at \/api\/preview only/).waitFor();
    await s.checkScreen(`mint-preview-key-${width}`);
    await dialog.getByRole("button", { name: "Mint key" }).click();
    const shown = page.getByRole("dialog", { name: "Copy your new key now" });
    const secret = await shown.getByLabel(`API key “Preview deployment ${width}”`).inputValue();
    expect(secret).toMatch(/^cp_preview_/);
    await shown
      .getByText(/\/api\/preview/)
      .first()
      .waitFor();
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.getByRole("button", { name: "Close without copying" }).click();
    const row = page.getByRole("row", { name: new RegExp(`Preview deployment ${width}`) });
    await row.getByText("Preview", { exact: true }).waitFor();
  });

  it("Preview on site opens the team's site with the blog's pending changes, rendered there", async () => {
    await setPreviewUrl(`${siteUrl}/preview?slug={slug}&token={token}`);
    const blog = await releasedWithPendingChanges();
    await s.setViewport(width);
    await page.goto(s.url(`/w/${s.ws}/blogs/${blog.id}`));
    await page.getByRole("heading", { name: "Edit blog" }).waitFor();
    const button = page.getByRole("button", { name: "Preview on site" });
    await s.checkScreen(`editor-preview-on-site-${width}`);
    const [tab] = await Promise.all([page.context().waitForEvent("page"), button.click()]);
    await tab.waitForURL(/\/preview\?/);
    await tab.getByRole("heading", { name: blog.title }).waitFor();
    expect(new URL(tab.url()).searchParams.get("token")).toMatch(
      /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
    );
    // The site's tab cannot script the dashboard.
    expect(await tab.evaluate(() => window.opener === null)).toBe(true);
    await tab.close();

    // Unsaved text: the button says the site shows the saved version.
    await page.getByLabel("Title", { exact: true }).fill("Typed, not saved");
    await page.getByRole("button", { name: "Preview saved version" }).waitFor();
    await page.getByLabel("Title", { exact: true }).fill(blog.title);
    await page.getByRole("button", { name: "Preview on site" }).waitFor();
  });

  it("without a preview URL the editor has no Preview on site", async () => {
    await setPreviewUrl(null);
    const blog = await releasedWithPendingChanges();
    await s.setViewport(width);
    await page.goto(s.url(`/w/${s.ws}/blogs/${blog.id}`));
    await page.getByRole("button", { name: "History" }).waitFor();
    expect(await page.getByRole("button", { name: "Preview on site" }).count()).toBe(0);
  });
});
