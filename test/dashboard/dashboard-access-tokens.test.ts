// The account's access tokens (dashboard/README.md, "Access tokens"; admin.yaml,
// `listAccessTokens`, `createAccessToken`, `revokeAccessToken` and the `AccessToken` security
// scheme), in headless Chromium against the real server, each at 1280×800 and at 390×844: the
// empty section says what tokens are for; the new-token form checks on submit; a blogs:read
// token's secret is shown once in a dialog that is hard to lose, copied, and works from outside
// the browser as `Authorization: Bearer …` — allowed to read, refused a blog create; the list
// shows its prefix, scope and "Never", then its use; a revoke asks first, takes it off the list
// and its next request gets 401. The server's 400 about a field is said on that field, and its
// 409 at 50 tokens above the buttons. The section and both dialogs are held to axe at both
// widths, with screenshots in test-output/dashboard-access-tokens/.
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DashboardSession, openDashboardSession } from "../support/dashboard-session.js";

const WIDTHS = ["desktop", "phone"] as const;
const NAME = "Nightly export";

describe.each(WIDTHS)("access tokens at %s width", (width) => {
  let s: DashboardSession;
  let page: Page;
  let secret = "";
  /** Admin API writes the page sent (method and path), to prove a refused form sent nothing. */
  const writes: string[] = [];

  beforeAll(async () => {
    // Uses are written in batches once per LAST_USED_FLUSH_MS (README): short here, so a use
    // shows in the list within the test.
    s = await openDashboardSession({
      shots: "dashboard-access-tokens",
      viewport: width,
      env: { LAST_USED_FLUSH_MS: "50" },
    });
    page = s.page;
    page.on("request", (r) => {
      if (r.method() !== "GET") writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(s.url("/account"));
    await page.getByRole("heading", { name: "Your account", exact: true }).waitFor();
  });
  afterEach(async () => {
    await s.assertNoProblems();
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Each state's axe check and screenshots (both widths) once, in the desktop pass. */
  const check = (name: string) => (width === "desktop" ? s.checkScreen(name) : Promise.resolve());
  const section = () => page.getByRole("region", { name: "Access tokens" });
  const list = () => section().getByRole("list", { name: "Your access tokens" });
  const newDialog = () => page.getByRole("dialog", { name: "New access token" });
  const secretDialog = () => page.getByRole("dialog", { name: "Copy your new token now" });
  const workspacesUrl = () => `${s.server.url}/api/admin/workspaces`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** Waits until `target` has the focus (moved in an effect or the next frame). */
  const expectFocused = (target: Locator) =>
    expect.poll(() => target.evaluate((el) => el === document.activeElement)).toBe(true);
  /** A field's inline error: its text, `aria-invalid`, and first in its description. */
  const errorOf = (field: Locator) =>
    field.evaluate((el) => {
      const first = el.getAttribute("aria-describedby")?.split(" ")[0] ?? "";
      return {
        invalid: el.getAttribute("aria-invalid"),
        said: document.getElementById(first)?.textContent ?? null,
      };
    });
  /** The token row's facts, by their terms: {Token, Scopes, Created, Expires, "Last used"}. */
  const factsOf = (item: Locator) =>
    item
      .locator("dl > div")
      .evaluateAll((rows) =>
        Object.fromEntries(
          rows.map((row) => [
            row.querySelector("dt")?.textContent ?? "",
            row.querySelector("dd")?.textContent ?? "",
          ]),
        ),
      );

  it("with no tokens, the section says they are for scripts and CI jobs, sent as “Authorization: Bearer …” to the admin API, with a curl call that holds a placeholder", async () => {
    await section().getByText("No access tokens yet.").waitFor();
    await expect(section().textContent()).resolves.toMatch(
      /For scripts and CI jobs: a token acts as you on the admin API, sent in the Authorization: Bearer … header\./,
    );
    await expect(section().locator("pre").textContent()).resolves.toBe(
      `curl -H "Authorization: Bearer $PRESSROOM_TOKEN" ${workspacesUrl()}`,
    );
    await expect(list().count()).resolves.toBe(0);
    await check("tokens-empty");
  });

  it("the new-token form checks on submit: no name and no scope are said on their fields, the name focused, and nothing is sent", async () => {
    await section().getByRole("button", { name: "New token" }).click();
    const dialog = newDialog();
    await dialog.waitFor();
    await check("new-token-dialog");
    writes.length = 0;
    await dialog.getByRole("button", { name: "Create token" }).click();
    const name = dialog.getByLabel("Token name");
    await expect
      .poll(() => errorOf(name))
      .toEqual({
        invalid: "true",
        said: "Enter a name for the token.",
      });
    const read = dialog.getByRole("checkbox", { name: "blogs:read" });
    await expect(errorOf(read)).resolves.toEqual({
      invalid: "true",
      said: "Choose at least one scope.",
    });
    await expectFocused(name);
    // A day past the API's bound (366 days ahead) is refused on the date field too.
    await dialog.getByRole("radiogroup", { name: "Expires" }).getByText("On a date").click();
    const day = dialog.getByLabel("Expiry date");
    await day.fill(`${new Date().getFullYear() + 2}-01-01`);
    await name.fill(NAME);
    await read.check();
    await dialog.getByRole("button", { name: "Create token" }).click();
    await expect
      .poll(() => errorOf(day))
      .toEqual({ invalid: "true", said: expect.stringMatching(/^Choose a day from /) });
    await expectFocused(day);
    await check("new-token-dialog-errors");
    expect(writes).toEqual([]);
  });

  it("a blogs:read token's secret is shown once, in a dialog Escape and a stray click do not close, which asks before closing unless it was copied", async () => {
    const dialog = newDialog();
    await dialog.getByRole("radiogroup", { name: "Expires" }).getByText("30 days").click();
    await expect(dialog.getByRole("checkbox", { name: "blogs:write" }).isChecked()).resolves.toBe(
      false,
    );
    await dialog.getByRole("button", { name: "Create token" }).click();
    const shown = secretDialog();
    await shown.waitFor();
    secret = await shown.getByLabel(`Access token “${NAME}”`).inputValue();
    expect(secret).toMatch(/^pr_pat_[0-9A-Za-z]{42}$/);
    await expect(shown.getByLabel("Try it with curl").inputValue()).resolves.toBe(
      `curl -H "Authorization: Bearer ${secret}" ${workspacesUrl()}`,
    );
    await expectFocused(shown.getByRole("button", { name: `Copy Access token “${NAME}”` }));
    await check("token-secret-dialog");
    await page.keyboard.press("Escape");
    await page.mouse.click(3, 3); // the backdrop
    await expect(shown.isVisible()).resolves.toBe(true);
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.getByText("You have not copied the token.").waitFor();
    await expectFocused(shown.getByRole("button", { name: "Go back and copy" }));
    await check("token-secret-asking");
    await shown.getByRole("button", { name: "Go back and copy" }).click();
    await shown.getByRole("button", { name: `Copy Access token “${NAME}”` }).click();
    await shown.getByText("Copied to the clipboard.").waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
    await shown.getByRole("button", { name: "Done" }).click(); // copied: closes without asking
    await shown.waitFor({ state: "detached" });
    await expectFocused(section().getByRole("button", { name: "New token" }));
    // Shown once: the page holds it nowhere now, and the list never had it.
    await expect(page.content()).resolves.not.toContain(secret);
  });

  it("the list shows the token's name, prefix, its one scope, the exact expiry and “Never” used", async () => {
    const item = list().getByRole("listitem").filter({ hasText: NAME });
    await item.waitFor();
    await expect(list().getByRole("listitem").count()).resolves.toBe(1);
    await expect(item.getByRole("heading", { level: 3 }).textContent()).resolves.toBe(NAME);
    const facts = await factsOf(item);
    expect(facts).toMatchObject({
      Token: `${secret.slice(0, "pr_pat_".length + 4)}…`,
      Scopes: "blogs:read",
      "Last used": "Never",
    });
    // The exact moment, 30 days ahead, in `dateTime`; the text names the day.
    const expires = await item.locator("dd time").last().getAttribute("datetime");
    const days = (Date.parse(expires ?? "") - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    expect(facts.Expires).toMatch(/\b20\d\d\b.*GMT/);
    await check("tokens-list");
  });

  it("the token works from a script: 200 for the workspaces; refused (403) a blog create, blogs:read being its only scope", async () => {
    const res = await fetch(workspacesUrl(), { headers: bearer(secret) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { id: string }[] };
    expect(body.data.map((w) => w.id)).toEqual([s.ws]);
    const create = await fetch(`${workspacesUrl()}/${s.ws}/blogs`, {
      method: "POST",
      headers: { ...bearer(secret), "content-type": "application/json" },
      body: JSON.stringify({ title: "Not with a read token", bodyMarkdown: "No." }),
    });
    await create.arrayBuffer();
    expect(create.status).toBe(403);
    const blogs = await s.owner.get<{ data: unknown[] }>(`/workspaces/${s.ws}/blogs`);
    expect(blogs.body.data).toEqual([]);
  });

  it("after a use, “Last used” shows it (uses are written in batches: LAST_USED_FLUSH_MS is 50 here)", async () => {
    const item = list().getByRole("listitem").filter({ hasText: NAME });
    await expect
      .poll(
        async () => {
          await page.reload();
          return item.locator(".token-last-used").textContent();
        },
        { interval: 250 },
      )
      .toMatch(/^(just now|\d+ seconds ago)$/);
  });

  it("Revoke asks first (Cancel keeps the token); “Revoke token” takes it off the list, and the same request now gets 401", async () => {
    const revoke = section().getByRole("button", { name: `Revoke ${NAME}` });
    await revoke.click();
    const confirm = page.getByRole("dialog", { name: `Revoke “${NAME}”?` });
    await confirm.waitFor();
    await expect(confirm.textContent()).resolves.toContain(`${secret.slice(0, 11)}…`);
    await check("token-revoke-confirm");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    await expectFocused(revoke);
    await expect(list().getByRole("listitem").count()).resolves.toBe(1);
    await revoke.click();
    await confirm.getByRole("button", { name: "Revoke token" }).click();
    await confirm.waitFor({ state: "detached" });
    await section().getByText(`Token “${NAME}” revoked.`).waitFor();
    await section().getByText("No access tokens yet.").waitFor();
    await expect(list().count()).resolves.toBe(0);
    await expectFocused(section().getByRole("button", { name: "New token" }));
    const res = await fetch(workspacesUrl(), { headers: bearer(secret) });
    await res.arrayBuffer();
    expect(res.status).toBe(401);
  });

  it("the server's 400 about the name is said on the name field; what was typed stays", async () => {
    // The form checks what the server checks, so the refusal is provoked on the wire: the body
    // the page sends gets a name with a control character, which admin.yaml's pattern refuses.
    await page.route("**/api/admin/me/tokens", (route) => {
      const body = JSON.parse(route.request().postData() ?? "{}") as Record<string, unknown>;
      return route.continue({ postData: JSON.stringify({ ...body, name: "bell\u0007" }) });
    });
    s.expectProblems(/\b400\b.*\/api\/admin\/me\/tokens$/); // the response and its console line
    await section().getByRole("button", { name: "New token" }).click();
    const dialog = newDialog();
    const name = dialog.getByLabel("Token name");
    await name.fill("Deploy");
    await dialog.getByRole("checkbox", { name: "blogs:write" }).check();
    await dialog.getByRole("button", { name: "Create token" }).click();
    await expect
      .poll(() => errorOf(name))
      .toEqual({
        invalid: "true",
        said: "The name has a control character or a text-direction override: remove it.",
      });
    await expectFocused(name);
    await expect(name.inputValue()).resolves.toBe("Deploy");
    await page.unroute("**/api/admin/me/tokens");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });

  it("at 50 tokens the server's 409 is said above the buttons, focused, and the form keeps what was typed", async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    for (let i = 0; i < 50; i++) {
      const made = await s.owner.post("/me/tokens", {
        name: `Job ${i}`,
        scopes: ["blogs:read"],
        expiresAt,
      });
      expect(made.status).toBe(201);
    }
    await page.reload();
    await expect.poll(() => list().getByRole("listitem").count()).toBe(50);
    s.expectProblems(/\b409\b.*\/api\/admin\/me\/tokens$/);
    await section().getByRole("button", { name: "New token" }).click();
    const dialog = newDialog();
    await dialog.getByLabel("Token name").fill("One too many");
    await dialog.getByRole("checkbox", { name: "keys:manage" }).check();
    await dialog.getByRole("button", { name: "Create token" }).click();
    const alert = dialog.getByRole("alert");
    await expect(alert.textContent()).resolves.toMatch(/You have 50 access tokens/);
    await expectFocused(alert);
    await expect(dialog.getByLabel("Token name").inputValue()).resolves.toBe("One too many");
    await check("new-token-dialog-409");
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });
});
