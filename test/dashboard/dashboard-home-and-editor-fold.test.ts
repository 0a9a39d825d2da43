// Where a workspace opens and what the editor shows first (dashboard/README.md, `router.ts`:
// `/dashboard/` is the remembered workspace; "the editor": its action bar at the top), in
// Chromium against the real server: after sign-in, the workspace opens on Blogs for everyone — a
// writer (member) too, not on API keys — at 390×844 and at 1280×800; and at 1280×800 the
// editor's header is tight enough that the body field's top, and its first lines, are in the
// first screen, for a released blog with pending changes and a schedule (the longest header).
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, ANY_VERSION } from "../support/admin-client.js";
import {
  type DashboardSession,
  openDashboardSession,
  VIEWPORTS,
} from "../support/dashboard-session.js";

type AdminBlog = components["schemas"]["AdminBlog"];
const WRITER = { name: "Wren Writer", email: "wren@example.com", password: "a writer's password" };
/** How much of the body field, at least, the first screen shows: four lines or so. */
const BODY_SHOWN_PX = 100;

let s: DashboardSession;
let page: Page;

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-home-and-editor-fold" });
  page = s.page;
  page.setDefaultTimeout(10_000);
  // A writer: invited as a member, joined with a new account.
  const invited = await s.owner.post<{ link: string }>(`/workspaces/${s.ws}/invitations`, {
    email: WRITER.email,
    role: "member",
  });
  expect(invited.status).toBe(201);
  const token = invited.body.link.split("#/join/")[1] ?? "";
  const joined = await new AdminClient(s.server.url).post("/invitations/accept", {
    token,
    name: WRITER.name,
    password: WRITER.password,
  });
  expect(joined.status).toBeLessThan(300);
});
afterEach(async () => {
  await s.assertNoProblems();
});
afterAll(() => s?.close());

const heading = (name: string) => page.getByRole("heading", { name, exact: true });
/**
 * Waits, from before the step that opens Blogs, for that page's first list answer: the heading
 * shows before the list has answered, and a sign-out or a navigation while it is in flight
 * cancels it (a failed request the page watcher rightly reports).
 */
const blogListAnswered = () =>
  page.waitForResponse((r) => /\/workspaces\/[^/]+\/blogs\?/.test(r.url()) && r.ok());
/** The browser signed in as the owner again (a test before may have signed someone else in). */
async function asOwner(): Promise<void> {
  const [name = "", value = ""] = (s.owner.cookie ?? "").split("=");
  await s.browser.clearCookies();
  await s.browser.addCookies([{ name, value, url: s.server.url }]);
}

describe("the editor at 1280×800", () => {
  it("a released blog with pending changes and a schedule shows the top of its body field in the first screen", async () => {
    await s.setViewport("desktop");
    const preview = await s.owner.call("PUT", `/workspaces/${s.ws}/preview-url`, {
      previewUrl: "https://example.com/preview?token={token}",
    });
    expect(preview.status).toBe(200);
    const made = await s.owner.post<AdminBlog>(`/workspaces/${s.ws}/blogs`, {
      title: "The longest header",
      tags: ["release-notes", "product"],
      bodyMarkdown: "First paragraph.\n\nSecond paragraph.",
    });
    const id = made.body.id;
    const path = `/workspaces/${s.ws}/blogs/${id}`;
    await s.owner.post(`${path}/release`, undefined, ANY_VERSION);
    await s.owner.patch(path, { excerpt: "Pending words" }, ANY_VERSION);
    const day = 86_400_000;
    const scheduled = await s.owner.call(
      "PUT",
      `${path}/schedule`,
      {
        publishAt: new Date(Date.now() + 2 * day).toISOString(),
        unreleaseAt: new Date(Date.now() + 9 * day).toISOString(),
      },
      ANY_VERSION,
    );
    expect(scheduled.status).toBe(200);
    await page.goto(s.url(`/w/${s.ws}/blogs/${id}`));
    await heading("Edit blog").waitFor();
    const body = page.getByLabel("Body (Markdown)");
    await body.waitFor();
    await page.getByText(/Publishes the pending changes/).waitFor();
    const box = await body.boundingBox();
    const { height } = VIEWPORTS.desktop;
    expect(box, "the body field is laid out").not.toBeNull();
    expect(
      (box?.y ?? height) + BODY_SHOWN_PX,
      `the body field starts at ${box?.y} px of ${height}`,
    ).toBeLessThanOrEqual(height);
    await expect(page.evaluate(() => scrollY)).resolves.toBe(0);
    await s.checkScreen("editor-first-screen");
  });
});

describe.each(["desktop", "phone"] as const)(
  "the workspace's first screen at %s width",
  (width) => {
    it("the owner, opening the dashboard, lands on Blogs", async () => {
      await s.setViewport(width);
      await asOwner();
      const listed = blogListAnswered();
      await page.goto(s.url("/"));
      await heading("Blogs").waitFor();
      await listed;
      expect(new URL(page.url()).pathname).toBe(`/dashboard/w/${s.ws}/blogs`);
    });

    it("a writer (member) who signs in lands on Blogs, not on API keys", async () => {
      await s.setViewport(width);
      await s.browser.clearCookies();
      await page.goto(s.url("/"));
      await heading("Sign in").waitFor();
      await page.getByLabel("Email").fill(WRITER.email);
      await page.getByLabel("Password", { exact: true }).fill(WRITER.password);
      const listed = blogListAnswered();
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await heading("Blogs").waitFor();
      await listed;
      expect(new URL(page.url()).pathname).toBe(`/dashboard/w/${s.ws}/blogs`);
      await expect(heading("API keys").count()).resolves.toBe(0);
      if (width === "phone") await s.checkScreen("writer-home");
      await page.getByRole("button", { name: "Sign out" }).click();
      await heading("Sign in").waitFor();
    });
  },
);
