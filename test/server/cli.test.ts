import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Secret, TOTP } from "otpauth";
import { beforeAll, describe, expect, it } from "vitest";
import { collections } from "../../server/src/platform/db/collections.js";
import { AdminClient } from "../support/admin-client.js";
import { type CliResult, runCli } from "../support/cli.js";
import { get } from "../support/fixtures.js";
import { RESET_LINK, recordResetTokens } from "../support/secret-scan.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

let t: TestDb;
let server: TestServer;
let env: Record<string, string>;
const cli = (...args: string[]) => runCli(args, env);
const json = (r: CliResult) => {
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  env = { MONGODB_URI: t.uri, MONGODB_DB: t.name };
});

describe("operator CLI — happy path, as an operator sets up a consumer", () => {
  it("creates a workspace, blogs and a key, and the key reads the released blog over HTTP", async () => {
    const { id: workspaceId } = json(await cli("workspace", "create", "--name", "Acme", "--json"));
    expect(workspaceId).toMatch(/^ws_/);
    const bodyFile = path.join(tmpdir(), `pressroom-body-${Date.now()}.md`);
    await writeFile(bodyFile, "# Hello\n\nFirst *post*.\n");
    const ws = String(workspaceId);
    const released = json(
      await cli(
        "blog",
        "create",
        "--workspace",
        ws,
        "--title",
        "Hello world",
        "--body-file",
        bodyFile,
        "--tags",
        "news,launch",
        "--release",
        "--json",
      ),
    );
    const draft = json(
      await cli("blog", "create", "--workspace", ws, "--title", "Later", "--json"),
    );
    const minted = json(await cli("key", "mint", "--workspace", ws, "--name", "Website", "--json"));
    expect(Object.keys(minted).sort()).toEqual(["id", "key", "kind", "prefix"]);
    expect(minted.key).toMatch(/^cp_live_[0-9A-Za-z]{42}$/);
    expect(minted.kind).toBe("live");
    expect(minted.prefix).toBe(String(minted.key).slice(0, 12));
    // --preview: a preview key, which reads the draft at /api/preview (openapi.yaml, "Preview").
    const preview = json(
      await cli("key", "mint", "--workspace", ws, "--name", "Preview", "--preview", "--json"),
    );
    expect([preview.kind, String(preview.key).slice(0, 11)]).toEqual(["preview", "cp_preview_"]);
    const previewed = await get(`${server.url}/api/preview/blogs/${draft.id}`, {
      "x-api-key": String(preview.key),
    });
    expect(previewed.status).toBe(200);

    const list = await get(`${server.url}/api/consumer/blogs`, { "x-api-key": String(minted.key) });
    expect((list.body as { data: { id: string; tags: string[] }[] }).data).toMatchObject([
      { id: released.id, tags: ["news", "launch"] },
    ]);
    expect(
      (
        await get(`${server.url}/api/consumer/blogs/${draft.id}`, {
          "x-api-key": String(minted.key),
        })
      ).status,
    ).toBe(404);

    const blogs = json(await cli("blog", "list", "--workspace", ws, "--json")).blogs as {
      id: string;
      status: string;
    }[];
    expect(blogs.map((b) => [b.id, b.status]).sort()).toEqual(
      [
        [released.id, "released"],
        [draft.id, "draft"],
      ].sort(),
    );
    expect(
      json(await cli("blog", "release", "--workspace", ws, String(draft.id), "--json")),
    ).toEqual({ id: draft.id, status: "released" });
    expect(
      json(await cli("blog", "remove", "--workspace", ws, String(released.id), "--json")),
    ).toEqual({ id: released.id, status: "removed" });

    const keys = json(await cli("key", "list", "--workspace", ws, "--json")).keys as Record<
      string,
      unknown
    >[];
    expect(keys.map((k) => k.kind)).toEqual(["live", "preview"]);
    expect(Object.keys(keys[0] ?? {}).sort()).toEqual([
      "createdAt",
      "expiresAt",
      "id",
      "kind",
      "lastUsedAt",
      "name",
      "prefix",
      "rolledTo",
      "status",
    ]);
    expect(keys[0]).toMatchObject({
      id: minted.id,
      name: "Website",
      prefix: minted.prefix,
      status: "Active",
    });
    expect(JSON.stringify(keys)).not.toContain(String(minted.key));

    expect(
      json(await cli("key", "revoke", "--workspace", ws, String(minted.id), "--json")),
    ).toMatchObject({ id: minted.id, status: "Revoked" });
    expect(
      (await get(`${server.url}/api/consumer/blogs`, { "x-api-key": String(minted.key) })).status,
    ).toBe(401);
  });

  it("prints readable text without --json, and shows a minted key once with a warning", async () => {
    const created = await cli("workspace", "create", "--name", "Text Co");
    expect(created.code).toBe(0);
    const ws = /Created workspace (ws_\w+)/.exec(created.stdout)?.[1] ?? "";
    const mint = await cli("key", "mint", "--workspace", ws, "--name", "Site");
    expect(mint.stdout).toMatch(/cp_live_[0-9A-Za-z]{42}/);
    expect(mint.stdout).toContain("only time the key is shown");
    const list = await cli("key", "list", "--workspace", ws);
    expect(list.stdout).toMatch(/ID\s+NAME\s+PREFIX\s+STATUS\s+CREATED\s+LAST USED/);
    expect(list.stdout).toContain("never");
    expect(list.stdout).not.toMatch(/cp_live_[0-9A-Za-z]{42}/);
  });

  it("demo seeds released, draft and removed blogs, and only the released ones are served", async () => {
    const seeded = json(await cli("demo", "--json")) as {
      workspaceId: string;
      released: string[];
      drafts: string[];
      removed: string[];
    };
    expect(seeded.released.length).toBeGreaterThanOrEqual(3);
    const { key } = json(
      await cli("key", "mint", "--workspace", seeded.workspaceId, "--name", "Demo", "--json"),
    );
    const listed = (await get(`${server.url}/api/consumer/blogs`, { "x-api-key": String(key) }))
      .body as { data: { id: string }[] };
    expect(listed.data.map((b) => b.id).sort()).toEqual([...seeded.released].sort());
  });
});

describe("operator CLI — tags in normal form (openapi.yaml, Tags), as the dashboard stores them", () => {
  it("blog create --tags stores each tag's normal form; one that cannot be stored exits 1 naming it", async () => {
    const { id } = json(await cli("workspace", "create", "--name", "Tagged", "--json"));
    const ws = String(id);
    const created = json(
      await cli(
        "blog",
        "create",
        "--workspace",
        ws,
        "--title",
        "T",
        "--tags",
        "Release Notes,C++,release-notes",
        "--json",
      ),
    );
    const stored = await collections(t.db).blogs.findOne({ _id: String(created.id) });
    expect(stored?.tags).toEqual(["release-notes", "c++"]);
    const refused = await cli(
      "blog",
      "create",
      "--workspace",
      ws,
      "--title",
      "U",
      "--tags",
      "ok,zero\u200bwidth",
      "--json",
    );
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({
      message: 'Tag "zeroU+200Bwidth" contains a control or invisible character.',
    });
  });
});

describe("operator CLI — presentation and search fields (README, 'Operator CLI')", () => {
  it("blog create --meta-title … --featured stores the six fields as the admin API does; none given: null and not featured", async () => {
    const { id } = json(await cli("workspace", "create", "--name", "Presented", "--json"));
    const ws = String(id);
    const created = json(
      await cli(
        "blog",
        "create",
        "--workspace",
        ws,
        "--title",
        "Dressed",
        "--cover-image-alt",
        "  A harbour at night  ",
        "--featured",
        "--meta-title",
        "Dressed for search",
        "--meta-description",
        "What the card says.",
        "--canonical-url",
        "https://first.example.org/dressed",
        "--social-image-url",
        "https://images.example.com/card.png",
        "--json",
      ),
    );
    const stored = await collections(t.db).blogs.findOne({ _id: String(created.id) });
    expect(stored).toMatchObject({
      coverImageAlt: "A harbour at night",
      featured: true,
      metaTitle: "Dressed for search",
      metaDescription: "What the card says.",
      canonicalUrl: "https://first.example.org/dressed",
      socialImageUrl: "https://images.example.com/card.png",
    });
    const plain = json(
      await cli("blog", "create", "--workspace", ws, "--title", "Plain", "--json"),
    );
    expect(await collections(t.db).blogs.findOne({ _id: String(plain.id) })).toMatchObject({
      coverImageAlt: null,
      featured: false,
      metaTitle: null,
      canonicalUrl: null,
    });
    const both = await cli(
      "blog",
      "create",
      "--workspace",
      ws,
      "--title",
      "Both",
      "--featured",
      "--no-featured",
    );
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining("not both")]);
    const credentials = await cli(
      "blog",
      "create",
      "--workspace",
      ws,
      "--title",
      "Secret",
      "--canonical-url",
      "https://u:pw@first.example.org/x",
      "--json",
    );
    expect(credentials.code).toBe(1);
    expect(JSON.parse(credentials.stdout)).toEqual({
      message: "canonicalUrl must not carry a user name or password.",
    });
  });
});

describe("operator CLI — alt text before release (README, Media)", () => {
  it("blog create --release of a body showing a library image without alt text exits 1 naming it and releases nothing; with alt text it releases", async () => {
    const ws = String(json(await cli("workspace", "create", "--name", "Figures", "--json")).id);
    // The library's record is all the alt rule reads (the render fills a missing alt from it).
    await collections(t.db).media.insertOne({
      _id: "med_cliChart0001",
      workspaceId: ws,
      sha256: "0".repeat(64),
      name: "chart.png",
      alt: "",
      type: "png",
      width: 320,
      height: 180,
      bytes: 1000,
      terms: ["chart", "png"],
      createdAt: new Date(),
      createdBy: "usr_cli",
    });
    const url = "https://cms.example.com/api/consumer/media/med_cliChart0001/chart.png";
    const create = async (title: string, body: string) => {
      const file = path.join(tmpdir(), `pressroom-alt-${Date.now()}-${title.length}.md`);
      await writeFile(file, body);
      return cli(
        "blog",
        "create",
        "--workspace",
        ws,
        "--title",
        title,
        "--body-file",
        file,
        "--release",
        "--json",
      );
    };
    const refused = await create("No alt", `See ![](${url}) here.\n`);
    expect(refused.code, refused.stdout).toBe(1);
    expect(refused.stderr).toMatch(/alt text.*chart\.png/);
    expect(
      await collections(t.db).blogs.countDocuments({ workspaceId: ws, status: "released" }),
    ).toBe(0);
    const released = json(await create("With alt", `See ![Sales by month](${url}) here.\n`));
    expect((await collections(t.db).blogs.findOne({ _id: String(released.id) }))?.status).toBe(
      "released",
    );
  });
});

describe("operator CLI — schedules (admin.yaml, Schedules)", () => {
  it("blog schedule sets a release time a running server keeps, cancels with none, and refuses bad times", async () => {
    const { id: ws } = json(await cli("workspace", "create", "--name", "Timed", "--json"));
    const wsId = String(ws);
    const minted = json(await cli("key", "mint", "--workspace", wsId, "--name", "Site", "--json"));
    const made = (title: string) =>
      cli("blog", "create", "--workspace", wsId, "--title", title, "--json");
    const { id: timed } = json(await made("At a time"));
    const { id: cancelled } = json(await made("Not after all"));
    // Far enough ahead to be in the future still when the CLI process has started and read it,
    // on a busy machine (2 s was not, once, with the whole suite running on 2 cores).
    const at = new Date(Date.now() + 6000).toISOString();
    expect(
      json(
        await cli(
          "blog",
          "schedule",
          "--workspace",
          wsId,
          String(timed),
          "--publish-at",
          at,
          "--json",
        ),
      ),
    ).toEqual({ id: timed, status: "draft", schedule: { publishAt: at, unreleaseAt: null } });
    const later = new Date(Date.now() + 60_000).toISOString();
    json(
      await cli(
        "blog",
        "schedule",
        "--workspace",
        wsId,
        String(cancelled),
        "--publish-at",
        later,
        "--json",
      ),
    );
    expect(
      json(
        await cli(
          "blog",
          "schedule",
          "--workspace",
          wsId,
          String(cancelled),
          "--publish-at",
          "none",
          "--json",
        ),
      ),
    ).toMatchObject({ schedule: { publishAt: null, unreleaseAt: null } });

    const noOffset = await cli(
      "blog",
      "schedule",
      "--workspace",
      wsId,
      String(cancelled),
      "--publish-at",
      "2030-01-01T09:00",
    );
    expect(noOffset.code).toBe(2);
    expect(noOffset.stderr).toContain("--publish-at takes a date and time with its offset");
    const past = await cli(
      "blog",
      "schedule",
      "--workspace",
      wsId,
      String(cancelled),
      "--publish-at",
      "2020-01-01T09:00:00Z",
      "--json",
    );
    expect(past.code).toBe(1);
    expect(JSON.parse(past.stdout)).toEqual({ message: "publishAt must be in the future." });
    expect((await cli("blog", "schedule", "--workspace", wsId, String(cancelled))).code).toBe(2);

    // Set by another process: the server sees it at its next look (every 5 s).
    const status = async (id: unknown) =>
      (
        await get(`${server.url}/api/consumer/blogs/${String(id)}`, {
          "x-api-key": String(minted.key),
        })
      ).status;
    const deadline = Date.now() + 12_000;
    while ((await status(timed)) !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await status(timed)).toBe(200);
    expect(await status(cancelled)).toBe(404);
  });
});

describe("operator CLI — dashboard users", () => {
  it("user create reads the password from stdin and stores only its argon2id hash", async () => {
    const password = "a long and secret password";
    const r = await runCli(
      ["user", "create", "--email", "Ed@Example.com", "--name", "Ed", "--json"],
      env,
      `${password}\n`,
    );
    expect(json(r)).toMatchObject({ email: "ed@example.com" });
    const stored = await t.db.collection("users").findOne({ email: "ed@example.com" });
    expect(String(stored?.passwordHash)).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(stored)).not.toContain(password);
    const short = await runCli(
      ["user", "create", "--email", "f@example.com", "--name", "F"],
      env,
      "short\n",
    );
    expect(short.code).toBe(2);
  });
});

describe("operator CLI — password reset for a server without mail", () => {
  it("user reset-password prints a one-time link to the dashboard (PUBLIC_URL) that sets a new password; an unknown email exits 1", async () => {
    await runCli(
      ["user", "create", "--email", "reset@example.com", "--name", "Rita"],
      env,
      "rita's first passphrase\n",
    );
    const printed = json(
      await runCli(["user", "reset-password", "Reset@Example.com", "--json"], {
        ...env,
        PUBLIC_URL: server.url,
      }),
    );
    const link = String(printed.link);
    expect(link).toMatch(new RegExp(`^${server.url}/dashboard/#/reset/[A-Za-z0-9_-]{43}$`));
    expect(printed.email).toBe("reset@example.com");
    const token = link.split("#/reset/")[1] ?? "";
    recordResetTokens([token]);
    const complete = (newPassword: string) =>
      new AdminClient(server.url).post("/password-resets/complete", { token, newPassword });
    expect((await complete("rita's new passphrase")).status).toBe(204);
    expect((await complete("rita's third passphrase")).status).toBe(410);
    const signIn = await new AdminClient(server.url).post("/session", {
      email: "reset@example.com",
      password: "rita's new passphrase",
    });
    expect(signIn.status).toBe(200);

    const plain = await cli("user", "reset-password", "reset@example.com");
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(
      /^http:\/\/localhost:3000\/dashboard\/#\/reset\/[A-Za-z0-9_-]{43}$/m,
    );
    recordResetTokens([...plain.stdout.matchAll(RESET_LINK)].flatMap((m) => m[1] ?? []));
    const unknown = await cli("user", "reset-password", "nobody@example.com");
    expect([unknown.code, unknown.stderr.trim()]).toEqual([
      1,
      "No account has the email nobody@example.com.",
    ]);
  });
});

describe('operator CLI — two-step sign-in off for a lost app (README, "Two-step sign-in")', () => {
  it("user turn-off-two-step lets the password alone sign in again; an account without it is told so", async () => {
    await runCli(
      ["user", "create", "--email", "lost@example.com", "--name", "Lou"],
      env,
      "lou's only passphrase\n",
    );
    const browser = new AdminClient(server.url);
    const credentials = { email: "lost@example.com", password: "lou's only passphrase" };
    expect((await browser.post("/session", credentials)).status).toBe(200);
    const started = await browser.post<{ secret: string }>("/me/two-step", {
      currentPassword: credentials.password,
    });
    const code = TOTP.generate({ secret: Secret.fromBase32(started.body.secret) });
    expect((await browser.post("/me/two-step/confirm", { code })).status).toBe(200);
    expect((await new AdminClient(server.url).post("/session", credentials)).status).toBe(202);

    const off = json(
      await runCli(["user", "turn-off-two-step", "lost@example.com", "--json"], env),
    );
    expect(off).toEqual({ email: "lost@example.com", turnedOff: true });
    expect((await new AdminClient(server.url).post("/session", credentials)).status).toBe(200);
    const again = await cli("user", "turn-off-two-step", "lost@example.com");
    expect([again.code, again.stdout.trim()]).toEqual([
      0,
      "Two-step sign-in was not on for lost@example.com; nothing changed.",
    ]);
    const unknown = await cli("user", "turn-off-two-step", "nobody@example.com");
    expect(unknown.code).toBe(1);
  });
});

describe("operator CLI — errors are clear and exit non-zero", () => {
  it("a missing required option → exit 2 with usage", async () => {
    const r = await cli("key", "mint", "--name", "x");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--workspace is required");
    expect(r.stderr).toContain("Usage: pressroom");
  });

  it("an unknown option or command → exit 2", async () => {
    expect((await cli("key", "mint", "--wrokspace", "x")).code).toBe(2);
    expect((await cli("frobnicate")).code).toBe(2);
  });

  it("an unknown workspace or key → exit 1 with the reason, as JSON with --json", async () => {
    const r = await cli("key", "mint", "--workspace", "ws_nope", "--name", "x", "--json");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ message: "Workspace not found." });
    const revoke = await cli("key", "revoke", "--workspace", "ws_nope", "key_nope");
    expect(revoke.code).toBe(1);
    expect(revoke.stderr).toContain("Key not found.");
  });

  it("a bad MONGODB_URI → exit 1 naming the variable", async () => {
    const r = await runCli(["workspace", "list"], { MONGODB_URI: "http://nope" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("MONGODB_URI must start with mongodb://");
  });
});
