import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { localInputOf } from "../../dashboard/src/features/blogs/schedule.js";
import { ANY_VERSION } from "../support/admin-client.js";
import {
  type DashboardSession,
  openDashboardSession,
  type ViewportName,
} from "../support/dashboard-session.js";

// Scheduling in the editor (admin.yaml, "Schedules"; dashboard/README.md, "Schedules"): the
// Schedule dialog takes times in the viewer's time zone and names its UTC offset; the editor
// then says what is scheduled (bar badge, the header's sentence); Cancel schedule drops it; a
// time in the past is refused on its field. In headless Chromium against the real server, at
// 1280×800 and 390×844.

interface Blog {
  id: string;
  title: string;
  version: string;
  status: string;
  schedule: { publishAt: string | null; unreleaseAt: string | null };
}

let s: DashboardSession;
let page: Page;

beforeAll(async () => {
  s = await openDashboardSession({ shots: "dashboard-schedule" });
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

let made = 0;
async function makeBlog(released = false): Promise<Blog> {
  made++;
  const res = await s.owner.post<Blog>(`/workspaces/${s.ws}/blogs`, {
    title: `Schedule blog ${made}`,
    bodyMarkdown: "Words.",
  });
  expect(res.status).toBe(201);
  if (!released) return res.body;
  return (
    await s.owner.post<Blog>(
      `/workspaces/${s.ws}/blogs/${res.body.id}/release`,
      undefined,
      ANY_VERSION,
    )
  ).body;
}

const stored = async (id: string) =>
  (await s.owner.get<Blog>(`/workspaces/${s.ws}/blogs/${id}`)).body;

async function openEditor(blog: Blog): Promise<void> {
  await page.goto(s.url(`/w/${s.ws}/blogs/${blog.id}`));
  await page.getByRole("heading", { name: "Edit blog" }).waitFor();
  await expect.poll(() => page.getByLabel("Title", { exact: true }).inputValue()).toBe(blog.title);
}

const dialog = () => page.getByRole("dialog", { name: "Schedule" });
const bar = () => page.locator(".editor-bar");
/** A time `minutes` ahead, on a whole minute, as the input takes it (the viewer's zone). */
const ahead = (minutes: number) => {
  const at = new Date(Date.now() + minutes * 60_000);
  at.setSeconds(0, 0);
  return { input: localInputOf(at.toISOString()), iso: at.toISOString() };
};

const WIDTHS: ViewportName[] = ["desktop", "phone"];

describe.each(WIDTHS)("at %s width", (width) => {
  it("a draft's release is scheduled at a time in the viewer's zone, shown, then cancelled", async () => {
    await s.setViewport(width);
    const blog = await makeBlog();
    await openEditor(blog);
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await dialog().waitFor();
    await dialog().getByText("Nothing is scheduled.").waitFor();
    const release = dialog().getByLabel(/^Release at \((GMT|UTC)/);
    const at = ahead(90);
    await release.fill(at.input);
    await dialog().getByRole("button", { name: "Schedule", exact: true }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    await bar().getByText("Scheduled", { exact: true }).waitFor();
    await bar()
      .getByRole("status")
      .getByText(/^Releases /)
      .waitFor();
    expect((await stored(blog.id)).schedule).toEqual({ publishAt: at.iso, unreleaseAt: null });

    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await expect(
      dialog()
        .getByLabel(/^Release at/)
        .inputValue(),
    ).resolves.toBe(at.input);
    await dialog().getByRole("button", { name: "Cancel schedule" }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    await bar().getByRole("status").getByText("Nothing is scheduled now.").waitFor();
    expect((await stored(blog.id)).schedule).toEqual({ publishAt: null, unreleaseAt: null });
  });

  it("a time in the past is refused on its field; a released blog without pending changes offers only the unrelease", async () => {
    await s.setViewport(width);
    const blog = await makeBlog(true);
    await openEditor(blog);
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await dialog().waitFor();
    await expect(
      dialog()
        .getByLabel(/^Release at|^Publish changes at/)
        .count(),
    ).resolves.toBe(0);
    const unrelease = dialog().getByLabel(/^Back to draft at/);
    await unrelease.fill(ahead(-60).input);
    await dialog().getByRole("button", { name: "Schedule", exact: true }).click();
    await dialog().getByText("Choose a time in the future.").waitFor();
    await expect(unrelease.getAttribute("aria-invalid")).resolves.toBe("true");
    const at = ahead(120);
    await unrelease.fill(at.input);
    await dialog().getByRole("button", { name: "Schedule", exact: true }).click();
    await expect.poll(() => dialog().count()).toBe(0);
    expect((await stored(blog.id)).schedule.unreleaseAt).toBe(at.iso);
  });
});

describe("screens", () => {
  it("the schedule dialog passes axe at both widths", async () => {
    const blog = await makeBlog();
    await openEditor(blog);
    await page.getByRole("button", { name: "Schedule", exact: true }).click();
    await dialog().waitFor();
    await s.checkScreen("schedule-dialog");
  });
});
