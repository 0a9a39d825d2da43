import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { Secret, TOTP } from "otpauth";
import { beforeAll, describe, expect, it } from "vitest";
import { generateKey } from "../../server/src/keys/key-format.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { previewTokens } from "../../server/src/preview/preview-tokens.js";
import { accessTokensStore } from "../../server/src/tokens/access-tokens-store.js";
import { emailChangeLinks } from "../../server/src/users/email-change-links.js";
import { passwordResetLinks } from "../../server/src/users/password-reset-links.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import {
  get,
  type SeededWorkspace,
  seedWorkspace,
  stores,
  withWrongChecksum,
} from "../support/fixtures.js";
import { fill } from "../support/pathological-markdown.js";
import { rawRequest } from "../support/raw-http.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";
import { waitFor } from "../support/webhook-receiver.js";

let t: TestDb;
let server: TestServer;
let a: SeededWorkspace;
let b: SeededWorkspace;
let revokedKey: string;
/** Alpha's preview key, a real preview link token of its draft, and one expired an hour ago. */
let previewKey: string;
const previewLink = { token: "", expired: "" };
let admin: AdminClient;
let ws: string;
/** Access tokens: the owner's (blogs:read), a revoked one, and a removed member's. */
const accessToken = { reader: "", revoked: "", removed: "" };
/** The owner's password-reset links: one used already, one expired. */
const resetLink = { used: "", expired: "" };
/** Email-change links: one used already, one expired, one replaced by a newer request. */
const emailLink = { used: "", expired: "", replaced: "" };
/**
 * An account with two-step sign-in (admin.yaml, signInWithCode): its secret, the code of the step
 * it was turned on with (accepted, so the last step), a recovery code used already, and a
 * challenge of a right password waiting for its code.
 */
const twoStep = { secret: "", usedCode: "", earlierCode: "", usedRecovery: "", challenge: "" };
/** A released blog with pending changes, a version of it that is stale, and their history. */
const target = { id: "", path: "", current: "", stale: "", revision: "", othersRevision: "" };

/**
 * Every stored document, minus what reads legitimately move: lastUsedAt, and the counts of
 * consumer requests (the rate limiter's `rateCounters`, the usage buckets of `keyUsage`), and the
 * throttle's records of refused guesses (`signInFailures`).
 */
async function snapshot(): Promise<string> {
  const out: Record<string, unknown[]> = {};
  for (const { name } of await t.db.listCollections().toArray()) {
    // signInFailures: a refused guess (a password-reset link that cannot be used) is counted
    // there by design, as every failed sign-in is (sessions/sign-in-throttle.ts).
    if (name === "rateCounters" || name === "keyUsage" || name === "signInFailures") continue;
    const docs = await t.db.collection(name).find({}).sort({ _id: 1 }).toArray();
    out[name] = docs.map(({ lastUsedAt: _ignored, ...rest }) => rest);
  }
  return JSON.stringify(out, Object.keys(out).sort());
}

beforeAll(async () => {
  t = await useTestDb();
  server = await startTestServer(t.db);
  a = await seedWorkspace(t.db, "Alpha");
  b = await seedWorkspace(t.db, "Beta");
  await stores(t.db).blogs.create(b.workspaceId, {
    title: "Beta only",
    bodyMarkdown: "x",
    release: true,
  });
  const minted = await stores(t.db).keys.mint(a.workspaceId, "revoked");
  await stores(t.db).keys.revoke(a.workspaceId, minted.id);
  revokedKey = minted.key;
  previewKey = (await stores(t.db).keys.mint(a.workspaceId, "preview", null, { kind: "preview" }))
    .key;
  // Made here, with the database's token key, so the snapshot before the cases holds that key.
  previewLink.token = (await previewTokens(collections(t.db)).mint(a.workspaceId, a.draft)).token;
  previewLink.expired = (
    await previewTokens(collections(t.db), { now: () => Date.now() - 2 * 3_600_000 }).mint(
      a.workspaceId,
      a.draft,
    )
  ).token;
  // The changes feed records the seeded blogs (and makes its token key) on its first call: done
  // here, so the snapshot before the cases already holds them.
  await tokenOf(a.key);
  await tokenOf(b.key);
  admin = new AdminClient(server.url);
  ws =
    (await admin.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body.workspaces[0]?.id ??
    "";
  // Password-reset links that cannot be used (admin.yaml, completePasswordReset): one used, one
  // made 40 minutes ago; made here, so the snapshot before the cases holds them.
  const ownerAccount = await stores(t.db).users.findByEmail(OWNER.email);
  if (ownerAccount === null) throw new Error("no owner");
  const links = passwordResetLinks(collections(t.db));
  resetLink.used = (await links.issue(ownerAccount)).token;
  await links.claim(resetLink.used, new Date());
  resetLink.expired = (
    await passwordResetLinks(collections(t.db), () => Date.now() - 40 * 60_000).issue(ownerAccount)
  ).token;
  // Email-change links that cannot be used (admin.yaml, confirmEmailChange): one used, one made
  // 25 hours ago, one replaced by a newer request; each of an account of its own (one waiting
  // change per account), made here, so the snapshot before the cases holds them.
  const changer = async (who: string) => {
    const user = await stores(t.db).users.create({
      email: `${who}@example.com`,
      name: who,
      password: `${who} passphrase here`,
    });
    return user;
  };
  const changes = emailChangeLinks(collections(t.db));
  emailLink.used = (await changes.issue(await changer("used-change"), "u2@example.com")).token;
  await changes.claim(emailLink.used, new Date());
  emailLink.expired = (
    await emailChangeLinks(collections(t.db), () => Date.now() - 25 * 3_600_000).issue(
      await changer("expired-change"),
      "e2@example.com",
    )
  ).token;
  const replacing = await changer("replaced-change");
  emailLink.replaced = (await changes.issue(replacing, "r2@example.com")).token;
  await changes.issue(replacing, "r3@example.com");
  // Access tokens (admin.yaml, the AccessToken scheme): the owner's, for blogs:read only; one
  // revoked; one of a member removed from the workspace since.
  const tokens = accessTokensStore(collections(t.db));
  const expiresAt = new Date(Date.now() + 30 * 86_400_000);
  const grant = { name: "CI", scopes: ["blogs:read"], expiresAt };
  accessToken.reader = (await tokens.create(ownerAccount._id, grant)).secret;
  const revoked = await tokens.create(ownerAccount._id, grant);
  await tokens.revoke(ownerAccount._id, revoked.doc.tokenId);
  accessToken.revoked = revoked.secret;
  const gone = await stores(t.db).users.create({
    email: "gone@example.com",
    name: "Gone",
    password: "a gone member's passphrase",
  });
  await stores(t.db).workspaces.join(ws, gone._id, "member");
  accessToken.removed = (await tokens.create(gone._id, grant)).secret;
  await stores(t.db).workspaces.removeMember(ws, gone._id);
  // Two-step sign-in, turned on through the API with the code of now; one recovery code used.
  const twoStepUser = { email: "two-step@example.com", password: "a two-step passphrase" };
  await stores(t.db).users.create({ ...twoStepUser, name: "Two Step" });
  const twoStepper = new AdminClient(server.url);
  await twoStepper.post("/session", twoStepUser);
  const enrolled = await twoStepper.post<{ secret: string }>("/me/two-step", {
    currentPassword: twoStepUser.password,
  });
  const secret = Secret.fromBase32(enrolled.body.secret);
  const now = Date.now();
  twoStep.usedCode = TOTP.generate({ secret, timestamp: now });
  twoStep.earlierCode = TOTP.generate({ secret, timestamp: now - 30_000 });
  const codes = await twoStepper.post<{ recoveryCodes: string[] }>("/me/two-step/confirm", {
    code: twoStep.usedCode,
  });
  twoStep.usedRecovery = codes.body.recoveryCodes[0] ?? "";
  const challengeOf = async () =>
    (await new AdminClient(server.url).post<{ challenge: string }>("/session", twoStepUser)).body
      .challenge;
  await new AdminClient(server.url).post("/session/two-step", {
    challenge: await challengeOf(),
    code: twoStep.usedRecovery,
  });
  twoStep.challenge = await challengeOf();
  // Stale writes (admin.yaml, "Conditional writes", "History"): a released blog with pending
  // changes, whose first version every write below names.
  type Blog = { id: string; version: string };
  const blogs = `/workspaces/${ws}/blogs`;
  const made = await admin.post<Blog>(blogs, { title: "Target", bodyMarkdown: "One." });
  const at = (blog: Blog) => ({ "if-match": `"${blog.version}"` });
  const released = await admin.post<Blog>(
    `${blogs}/${made.body.id}/release`,
    undefined,
    at(made.body),
  );
  const staged = await admin.patch<Blog>(
    `${blogs}/${made.body.id}`,
    { title: "Pending" },
    at(released.body),
  );
  const other = await admin.post<Blog>(blogs, { title: "Other", bodyMarkdown: "Two." });
  type History = { data: { id: string }[] };
  const historyOf = async (id: string) =>
    (await admin.get<History>(`${blogs}/${id}/revisions`)).body.data;
  Object.assign(target, {
    id: made.body.id,
    path: `${blogs}/${made.body.id}`,
    current: staged.body.version,
    stale: made.body.version,
    revision: (await historyOf(made.body.id)).at(-1)?.id ?? "",
    othersRevision: (await historyOf(other.body.id))[0]?.id ?? "",
  });
});

/** `If-Match` naming `version` (strong). */
const ifMatch = (version: string) => ({ "if-match": `"${version}"` });

type Case = [name: string, run: () => Promise<{ status: number; body?: unknown }>, status: number];
const list = (headers: Record<string, string>, query = "") =>
  get(`${server.url}/api/consumer/blogs${query}`, headers);
const byId = (id: string) => get(`${server.url}/api/consumer/blogs/${id}`, { "x-api-key": a.key });
const bySlug = (slug: string) =>
  get(`${server.url}/api/consumer/blogs/by-slug/${slug}`, { "x-api-key": a.key });
const feed = (path: string, headers: Record<string, string> = {}) =>
  get(`${server.url}/api/consumer/feeds/${path}`, headers);
const changesOf = (key: string, query = "") =>
  get(`${server.url}/api/consumer/changes${query}`, { "x-api-key": key });
const tokenOf = async (key: string) =>
  ((await changesOf(key)).body as { nextToken: string }).nextToken;
const rawList = async (headers: string) => {
  const res = await rawRequest(
    server.url,
    `GET /api/consumer/blogs HTTP/1.1\r\nHost: localhost\r\n${headers}`,
  );
  return {
    status: res.status,
    body: JSON.parse(res.raw.split("\r\n\r\n")[1] ?? "null") as unknown,
  };
};
/** An admin request as raw bytes (a Host fetch would not send), its JSON body parsed. */
const rawAdmin = async (head: string) => {
  const res = await rawRequest(server.url, head);
  return {
    status: res.status,
    body: JSON.parse(res.raw.split("\r\n\r\n")[1] ?? "null") as unknown,
  };
};
const wrongChecksum = () => withWrongChecksum(a.key);
/** GET on the preview base path (openapi.yaml, "Preview"). */
const onPreview = (path: string, key: string) =>
  get(`${server.url}/api/preview${path}`, { "x-api-key": key });
/** exchangePreviewToken with `key` and a body sent as given. */
const exchange = async (body: string, key = a.key) => {
  const res = await fetch(`${server.url}/api/consumer/preview-tokens/exchange`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body,
  });
  return { status: res.status, body: (await res.json()) as unknown };
};
/** A genuine token with one character of its signature changed. */
const editedSignature = () => previewLink.token.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
/** 1.4 million nested arrays, `[[[…]]]`: 2.8 MB of JSON in 2,751 gzipped bytes. */
const GZIP_BOMB = gzipSync(`${"[".repeat(1_400_000)}${"]".repeat(1_400_000)}`, { level: 9 });
/** A POST to an open admin operation, from the server's own origin, with no session. */
const openPost = async (
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
) => {
  const res = await fetch(`${server.url}/api/admin${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, ...headers },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
};

/** An entry as importBlogs takes it (admin.yaml `ImportEntry`), for the cases to spoil. */
const HOSTILE_ENTRY = {
  sourceKey: "markdown:hostile.md",
  origin: "hostile.md",
  title: "Hostile",
  slug: "hostile",
  status: "draft",
  bodyMarkdown: "x",
  tags: [],
  authorName: "",
  coverImageUrl: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  releasedAt: null,
  removedAt: null,
};

/** An admin request as a script makes it: an access token, no cookie, no Origin. */
const asScript = async (secret: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}/api/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as unknown };
};

/** confirmEmailChange with `body`, from the server's own origin, with no session. */
const confirmWith = (body: Record<string, unknown>) =>
  openPost("/email-changes/confirm", JSON.stringify(body));

/** completePasswordReset with `body`, from the server's own origin, with no session. */
const resetWith = (body: Record<string, unknown>) =>
  openPost("/password-resets/complete", JSON.stringify(body));

/** signInWithCode with `body`, from the server's own origin, with no session. */
const codeWith = (body: Record<string, unknown>) =>
  openPost("/session/two-step", JSON.stringify(body));

/** A 1 × 1 PNG: the bytes of a real image, for the cases where something else is wrong. */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e6b8a7a10000000049454e44ae426082",
  "hex",
);
/** An upload to the library of the admin's workspace, signed in (admin.yaml uploadMedia). */
const upload = (
  body: string | Buffer,
  query = "?name=x.png",
  type = "application/octet-stream",
  headers: Record<string, string> = {},
) =>
  openPost(`/workspaces/${ws}/media${query}`, body, {
    "content-type": type,
    cookie: admin.cookie ?? "",
    ...headers,
  });
/** A library image's public URL (openapi.yaml getMediaFile): no key. */
const mediaFile = (path: string) => get(`${server.url}/api/consumer/media/${path}`, {});

const cases: Case[] = [
  // keys
  ["an empty x-api-key", () => list({ "x-api-key": "" }), 401],
  ["a whitespace x-api-key", () => list({ "x-api-key": "   " }), 401],
  [
    "'bearer' in lower case (schemes are case-insensitive)",
    () => list({ authorization: `bearer ${a.key}` }),
    200,
  ],
  ["'Bearer' with no token", () => list({ authorization: "Bearer" }), 401],
  ["two x-api-key headers", () => rawList(`x-api-key: ${a.key}\r\nx-api-key: ${a.key}\r\n`), 401],
  ["an 8 KB key", () => list({ "x-api-key": `cp_live_${"A".repeat(8 * 1024)}` }), 401],
  ["non-ASCII bytes in the key", () => rawList("x-api-key: cp_live_\xff\xfe\xe9\r\n"), 401],
  ["cp_live_ alone", () => list({ "x-api-key": "cp_live_" }), 401],
  ["the right shape with a wrong checksum", () => list({ "x-api-key": wrongChecksum() }), 401],
  ["a cp_test_ key", () => list({ "x-api-key": a.key.replace("cp_live_", "cp_test_") }), 401],
  ["a well-formed key that was never minted", () => list({ "x-api-key": generateKey().raw }), 401],
  ["a revoked key", () => list({ "x-api-key": revokedKey }), 401],
  [
    "the right key with a trailing newline (a bare LF: unparseable)",
    () => rawList(`x-api-key: ${a.key}\n`),
    400,
  ],
  [
    "64 KB of headers",
    () => rawList(`x-api-key: ${a.key}\r\nx-junk: ${"j".repeat(64 * 1024)}\r\n`),
    431,
  ],
  [
    "another workspace's key on this workspace's blog",
    () => get(`${server.url}/api/consumer/blogs/${a.released[0]}`, { "x-api-key": b.key }),
    404,
  ],
  // paths
  [
    "an empty blog id (the list)",
    () => get(`${server.url}/api/consumer/blogs/`, { "x-api-key": a.key }),
    200,
  ],
  ["a 1 KB blog id", () => byId("b".repeat(1024)), 404],
  [
    "a 1,025-character blog id in 4-byte characters (400, not 431)",
    () => byId(encodeURIComponent("🚀".repeat(1025))),
    400,
  ],
  ["a unicode blog id", () => byId(encodeURIComponent("b_ünïcødé_🚀")), 404],
  ["a %00 blog id", () => byId("b_%00"), 404],
  ["an operator object as blog id", () => byId(encodeURIComponent('{"$ne":null}')), 404],
  ["[$ne] on the blog id", () => byId("b_x?blogId[$ne]=1"), 400],
  // slugs (openapi.yaml, getBlogBySlug and the Slug schema: 400 for what can never be a slug)
  ["a slug with an upper-case letter", () => bySlug("Post-1"), 400],
  ["a 101-character slug", () => bySlug("a".repeat(101)), 400],
  [
    "a 1,025-character slug in 4-byte characters (400, not 431)",
    () => bySlug(encodeURIComponent("🚀".repeat(1025))),
    400,
  ],
  [
    "a full-width slug (NFKC makes it post-1)",
    () => bySlug(encodeURIComponent("ｐｏｓｔ-１")),
    400,
  ],
  ["a slug with a zero-width space", () => bySlug(encodeURIComponent("post-1\u200b")), 400],
  ["a slug with a soft hyphen", () => bySlug(encodeURIComponent("post\u00ad-1")), 400],
  ["a %00 slug", () => bySlug("post-1%00"), 400],
  ["an encoded slash in a slug", () => bySlug("post-1%2F..%2F"), 400],
  ["a malformed percent-encoding in a slug", () => bySlug("post-%E0%A4%A"), 400],
  ["an operator object as slug", () => bySlug(encodeURIComponent('{"$ne":null}')), 400],
  ["[$ne] on the slug", () => bySlug("post-1?slug[$ne]=1"), 400],
  ["a well-formed slug no blog has", () => bySlug("no-such-post"), 404],
  ["this workspace's draft by slug", () => bySlug("alpha-draft"), 404],
  ["a slug only another workspace has", () => bySlug("beta-only"), 404],
  [
    "another workspace's key on this workspace's draft slug",
    () => get(`${server.url}/api/consumer/blogs/by-slug/alpha-draft`, { "x-api-key": b.key }),
    404,
  ],
  [
    "a revoked key on a slug",
    () => get(`${server.url}/api/consumer/blogs/by-slug/post-1`, { "x-api-key": revokedKey }),
    401,
  ],
  ["a raw key as the slug (kept out of the log)", () => bySlug(a.key), 400],
  [
    "a percent-encoded key as the slug (kept out of the log)",
    () => bySlug(a.key.replace(/_/g, "%5F")),
    400,
  ],
  // queries
  ...["0", "101", "-1", "1e3", "abc", "1.5", "", "0x10", "1e1", "%205", "5.0", "+5"].map(
    (v): Case => [`limit=${v}`, () => list({ "x-api-key": a.key }, `?limit=${v}`), 400],
  ),
  ["limit as an array", () => list({ "x-api-key": a.key }, "?limit=1&limit=2"), 400],
  // fields (openapi.yaml, "Choosing fields"): Blog properties only, one parameter, no spaces
  ...[
    "",
    ",",
    "id,,slug",
    "title,",
    "id,%20slug",
    "slug%0A",
    "_id",
    "__proto__",
    "%24where",
    "releasedAt.0",
    "workspaceId",
    "status",
    "constructor",
    "Title",
    "t%C4%B1tle",
    "%EF%BC%B4itle",
    "x".repeat(501),
    `${"id,".repeat(200)}id`,
  ].map(
    (v): Case => [
      `fields=${v.slice(0, 40)}`,
      () => list({ "x-api-key": a.key }, `?fields=${v}`),
      400,
    ],
  ),
  ["fields=foo with no key: the key is checked first", () => list({}, "?fields=foo"), 401],
  ["fields twice", () => list({ "x-api-key": a.key }, "?fields=id&fields=slug"), 400],
  ["fields[$ne]=", () => list({ "x-api-key": a.key }, "?fields[$ne]=1"), 400],
  ["fields[]=slug", () => list({ "x-api-key": a.key }, "?fields[]=slug"), 400],
  ["fields=title on a draft", () => byId(`${a.draft}?fields=title`), 404],
  ["fields=__proto__ on a blog", () => byId(`${a.released[0]}?fields=__proto__`), 400],
  [
    "fields=title%2Cslug, commas encoded",
    () => list({ "x-api-key": a.key }, "?fields=title%2Cslug"),
    200,
  ],
  // tag (openapi.yaml, "Tags"): normal form only, at most 10, 40 characters each
  ...[
    "",
    "%20",
    "News",
    "release%20notes",
    "%EF%BD%8E%EF%BD%85%EF%BD%97%EF%BD%93", // full-width "news"
    "cafe%CC%81", // NFD
    "ne%E2%80%8Bws", // zero-width space
    "ne%E2%80%8Dws", // zero-width joiner
    "ne%C2%ADws", // soft hyphen
    "%EF%BB%BFnews", // byte-order mark
    "a%E2%80%AEb", // right-to-left override
    "ne%00ws",
    "x".repeat(41),
    "%E3%8D%BB".repeat(21), // 21 × ㍻: 42 code points in NFKC
  ].map(
    (v): Case => [`tag=${v.slice(0, 40)}`, () => list({ "x-api-key": a.key }, `?tag=${v}`), 400],
  ),
  // Tags in normal form that no blog has: an empty page. Bytes that are not UTF-8 decode to
  // U+FFFD (a character like any other), and an operator's name is only a string to match.
  ...["%ED%A0%80", "%FF", "%24where", "%7B%22%24ne%22%3A1%7D"].map(
    (v): Case => [
      `tag=${v} (a tag no blog has)`,
      () => list({ "x-api-key": a.key }, `?tag=${v}`),
      200,
    ],
  ),
  [
    "11 tag values",
    () =>
      list(
        { "x-api-key": a.key },
        `?${Array.from({ length: 11 }, (_, i) => `tag=t${i}`).join("&")}`,
      ),
    400,
  ],
  ["tag[$ne]=", () => list({ "x-api-key": a.key }, "?tag[$ne]=x"), 400],
  ["tag[]=news", () => list({ "x-api-key": a.key }, "?tag[]=news"), 400],
  ["tag[0]=news", () => list({ "x-api-key": a.key }, "?tag[0]=news"), 400],
  ["tag=News with no key: the key is checked first", () => list({}, "?tag=News"), 401],
  [
    "tag=news twice (allowed: any of, once)",
    () => list({ "x-api-key": a.key }, "?tag=news&tag=news"),
    200,
  ],
  ["tag=c++ sent as c%2B%2B", () => list({ "x-api-key": a.key }, "?tag=c%2B%2B"), 200],
  // author (openapi.yaml, "Authors"): a slug or a 400; an unknown one is an empty page
  ...["", "Ada", "ada lovelace", "-ada", "a".repeat(101), "%00"].map(
    (v): Case => [
      `author=${v.slice(0, 20)}`,
      () => list({ "x-api-key": a.key }, `?author=${v}`),
      400,
    ],
  ),
  ["author twice", () => list({ "x-api-key": a.key }, "?author=a&author=b"), 400],
  ["author[$ne]=x", () => list({ "x-api-key": a.key }, "?author[$ne]=x"), 400],
  ["author=nobody: an empty page", () => list({ "x-api-key": a.key }, "?author=nobody"), 200],
  [
    "an author slug with a dot",
    () => get(`${server.url}/api/consumer/authors/by-slug/a.b`, { "x-api-key": a.key }),
    400,
  ],
  [
    "an author of another workspace by slug",
    () => get(`${server.url}/api/consumer/authors/by-slug/nobody`, { "x-api-key": a.key }),
    404,
  ],
  // q (openapi.yaml, "Search"): words or a 400, never a pattern or an operator
  ...[
    "",
    "%20%20%20",
    "a".repeat(101),
    "%C3%A9".repeat(101),
    "one%20two%20three%20four%20five%20six%20seven%20eight%20nine",
  ].map((v): Case => [`q=${v.slice(0, 30)}`, () => list({ "x-api-key": a.key }, `?q=${v}`), 400]),
  ["q twice", () => list({ "x-api-key": a.key }, "?q=a&q=b"), 400],
  ["q[$ne]=x", () => list({ "x-api-key": a.key }, "?q[$ne]=x"), 400],
  ["q[$regex]=.*", () => list({ "x-api-key": a.key }, "?q[$regex]=.*"), 400],
  ["q=x with no key: the key is checked first", () => list({}, "?q=x"), 401],
  ...[
    ".*",
    "^a|b$",
    "(a+)+$",
    "%24where",
    "%5Cu0000",
    "%7B%22%24gt%22%3A%22%22%7D",
    "%E2%80%AEevil",
    "a".repeat(100),
    "one%20two%20three%20four%20five%20six%20seven%20eight",
    "%F0%9F%98%80",
    // Free text, never a pattern: a control character or a malformed byte is simply no word.
    "%00",
    "%FF",
  ].map(
    (v): Case => [
      `q=${v.slice(0, 30)} (words, or none: a page)`,
      () => list({ "x-api-key": a.key }, `?q=${v}`),
      200,
    ],
  ),
  [
    "a plain cursor with q",
    async () => {
      const page = await list({ "x-api-key": a.key }, "?limit=1");
      const cursor = (page.body as { nextCursor: string }).nextCursor;
      return list({ "x-api-key": a.key }, `?q=post&cursor=${cursor}`);
    },
    400,
  ],
  // featured and the archive range (openapi.yaml, "Presentation and search fields", "Archives")
  ...["yes", "1", "0", "TRUE", "", "true,false", "null"].map(
    (v): Case => [`featured=${v}`, () => list({ "x-api-key": a.key }, `?featured=${v}`), 400],
  ),
  ["featured twice", () => list({ "x-api-key": a.key }, "?featured=true&featured=false"), 400],
  ["featured[$ne]=true", () => list({ "x-api-key": a.key }, "?featured[$ne]=true"), 400],
  ["featured=yes with no key: the key is checked first", () => list({}, "?featured=yes"), 401],
  ...[
    "",
    "yesterday",
    "2026-03-01",
    "2026-03-01T00:00:00",
    "2026-13-01T00:00:00Z",
    "2026-02-29T00:00:00Z",
    "2026-03-01T24:00:00Z",
    "2026-03-01T00:00:00+24:00",
    "2026-03-01T00:00:00+01:00", // a bare "+": a space when it arrives
    "%7B%22%24gt%22%3A%22%22%7D",
    `2026-03-01T00:00:00.${"1".repeat(30)}Z`,
  ].map(
    (v): Case => [
      `releasedAfter=${v.slice(0, 40)}`,
      () => list({ "x-api-key": a.key }, `?releasedAfter=${v}`),
      400,
    ],
  ),
  ...[
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999999999Z",
    "2016-12-31T23:59:60Z",
    "2026-03-01t00:00:00z",
    "2026-03-01T00:00:00%2B14:00",
    "2026-03-01T00:00:00-12:00",
  ].map(
    (v): Case => [
      `releasedBefore=${v} (an RFC 3339 time)`,
      () => list({ "x-api-key": a.key }, `?releasedBefore=${v}`),
      200,
    ],
  ),
  ["releasedAfter[$gt]=", () => list({ "x-api-key": a.key }, "?releasedAfter[$gt]=x"), 400],
  [
    "releasedAfter twice",
    () =>
      list(
        { "x-api-key": a.key },
        "?releasedAfter=2026-01-01T00:00:00Z&releasedAfter=2026-02-01T00:00:00Z",
      ),
    400,
  ],
  [
    "a reversed range",
    () =>
      list(
        { "x-api-key": a.key },
        "?releasedAfter=2026-02-01T00:00:00Z&releasedBefore=2026-01-01T00:00:00Z",
      ),
    400,
  ],
  [
    "a plain cursor with featured",
    async () => {
      const page = await list({ "x-api-key": a.key }, "?limit=1");
      const cursor = (page.body as { nextCursor: string }).nextCursor;
      return list({ "x-api-key": a.key }, `?featured=true&cursor=${cursor}`);
    },
    400,
  ],
  [
    "a plain cursor with a tag",
    async () => {
      const page = await list({ "x-api-key": a.key }, "?limit=1");
      const cursor = (page.body as { nextCursor: string }).nextCursor;
      return list({ "x-api-key": a.key }, `?tag=news&cursor=${cursor}`);
    },
    400,
  ],
  [
    "a cursor bound to a forged tag scope",
    () =>
      list(
        { "x-api-key": a.key },
        `?tag=news&cursor=${Buffer.from('[1,"b_x",{"$ne":1}]').toString("base64url")}`,
      ),
    400,
  ],
  [
    "tags: an unknown parameter",
    () => get(`${server.url}/api/consumer/tags?tag=news`, { "x-api-key": a.key }),
    400,
  ],
  ["tags: no key", () => get(`${server.url}/api/consumer/tags`), 401],
  [
    "tags: a revoked key",
    () => get(`${server.url}/api/consumer/tags`, { "x-api-key": revokedKey }),
    401,
  ],
  ["limit[$ne]=", () => list({ "x-api-key": a.key }, "?limit[$ne]=1"), 400],
  ["cursor[$gt]=", () => list({ "x-api-key": a.key }, "?cursor[$gt]="), 400],
  [
    "a tampered cursor",
    () =>
      list({ "x-api-key": a.key }, `?cursor=${Buffer.from('[1,"b_x"]x').toString("base64url")}`),
    400,
  ],
  [
    "a cursor naming an operator",
    () =>
      list(
        { "x-api-key": a.key },
        `?cursor=${Buffer.from('[{"$gt":0},"b_x"]').toString("base64url")}`,
      ),
    400,
  ],
  ["a 1 KB cursor", () => list({ "x-api-key": a.key }, `?cursor=${"A".repeat(1024)}`), 400],
  // the changes feed (openapi.yaml, "Syncing a mirror"): tokens are signed and workspace-bound
  ["since[$ne]=", () => changesOf(a.key, "?since[$ne]=1"), 400],
  [
    "since as an operator object",
    () => changesOf(a.key, `?since=${encodeURIComponent('{"$gt":""}')}`),
    400,
  ],
  ["since twice", async () => changesOf(a.key, `?since=${await tokenOf(a.key)}&since=x.y`), 400],
  [
    "another workspace's token",
    async () => changesOf(a.key, `?since=${await tokenOf(b.key)}`),
    400,
  ],
  [
    "a token with its workspace swapped",
    async () => {
      const [payload = "", mac = ""] = (await tokenOf(b.key)).split(".");
      const swapped = Buffer.from(payload, "base64url")
        .toString("utf8")
        .replace(b.workspaceId, a.workspaceId);
      return changesOf(a.key, `?since=${Buffer.from(swapped).toString("base64url")}.${mac}`);
    },
    400,
  ],
  ["a raw key as since (kept out of the log)", () => changesOf(a.key, `?since=${a.key}`), 400],
  ["a 1 KB since", () => changesOf(a.key, `?since=${"A".repeat(600)}.${"B".repeat(424)}`), 400],
  ["a cursor as since", () => changesOf(a.key, "?since=WzEsImJfeCJd"), 400],
  // public feeds (openapi.yaml, "Feeds"): no key; an ID no workspace has is one 404
  ...[
    "pf_AAAAAAAAAAAAAAAAAAAAAAAA",
    "pf_",
    "x",
    "pf_AAAAAAAAAAAAAAAAAAAAAAAA-_",
    "p".repeat(100),
  ].flatMap((id): Case[] =>
    ["rss.xml", "atom.xml", "feed.json", "sitemap.xml"].map(
      (file): Case => [`feed ${id.slice(0, 30)}/${file}`, () => feed(`${id}/${file}`), 404],
    ),
  ),
  ...[
    "p".repeat(101),
    "%24where",
    "pf%00x",
    "pf%20x",
    "..%2F..%2Fetc",
    "pf_x%7B%22%24ne%22%3A1%7D",
  ].map(
    (id): Case => [
      `feed ${id.slice(0, 30)} (not an ID's characters)`,
      () => feed(`${id}/rss.xml`),
      400,
    ],
  ),
  ["feed with a query parameter", () => feed("pf_AAAAAAAAAAAAAAAAAAAAAAAA/rss.xml?limit=1"), 400],
  [
    "feed with a revoked-looking key: keys are not looked at",
    () => feed("pf_x/rss.xml", { "x-api-key": "cp_live_x" }),
    404,
  ],
  ["feed file unknown", () => feed("pf_AAAAAAAAAAAAAAAAAAAAAAAA/index.html"), 401],
  ["feed on the preview base", () => get(`${server.url}/api/preview/feeds/pf_x/rss.xml`), 404],
  ["changes limit=0", () => changesOf(a.key, "?limit=0"), 400],
  ["changes with fields", () => changesOf(a.key, "?fields=id"), 400],
  ["changes with a revoked key", () => changesOf(revokedKey), 401],
  // admin bodies
  [
    "admin: wrong content type",
    () =>
      admin.call("POST", `/workspaces/${ws}/blogs`, undefined, { "content-type": "text/plain" }),
    415,
  ],
  ["admin: malformed JSON", () => admin.postRaw(`/workspaces/${ws}/blogs`, "{not json"), 400],
  [
    "admin: a coverImageUrl with a user name and password",
    () =>
      admin.post(`/workspaces/${ws}/blogs`, {
        title: "t",
        coverImageUrl: "https://user:secret@images.example.com/a.png",
      }),
    400,
  ],
  // the presentation fields (admin.yaml, BlogInput): one line of plain text, bounded; URLs by the cover's rule
  ...(
    [
      ["a metaTitle with a right-to-left override", { metaTitle: "a\u202eb" }],
      ["a metaDescription with a newline", { metaDescription: "a\nb" }],
      ["a 301-character metaTitle", { metaTitle: "x".repeat(301) }],
      ["a 501-character metaDescription", { metaDescription: "x".repeat(501) }],
      ["a coverImageAlt with a NUL", { coverImageAlt: "a\u0000b" }],
      ["a javascript: canonicalUrl", { canonicalUrl: "javascript:alert(1)" }],
      ["a socialImageUrl with a password", { socialImageUrl: "https://u:p@img.example.com/a" }],
      ["featured as a string", { featured: "yes" }],
      ["featured as an operator", { featured: { $ne: false } }],
      ["a metaTitle as an object", { metaTitle: { $gt: "" } }],
    ] as const
  ).map(
    ([what, fields]): Case => [
      `admin: ${what}`,
      () => admin.post(`/workspaces/${ws}/blogs`, { title: "t", ...fields }),
      400,
    ],
  ),
  [
    "admin: a 1 MB bodyMarkdown (past its maxLength, under the body limit)",
    () =>
      admin.post(`/workspaces/${ws}/blogs`, {
        title: "big",
        bodyMarkdown: "x".repeat(1024 * 1024),
      }),
    400,
  ],
  [
    "admin: a 4 MB blog body (over BLOG_BODY_LIMIT_BYTES, 3 MB)",
    () =>
      admin.post(`/workspaces/${ws}/blogs`, {
        title: "big",
        bodyMarkdown: "x".repeat(4 * 1024 * 1024),
      }),
    413,
  ],
  // stale and missing versions, and other blogs' revisions (admin.yaml, "Conditional writes",
  // "History"): a 412 also carries the blog as it is now (`current`)
  ...(
    [
      ["edit", () => admin.patch(target.path, { title: "Lost" }, ifMatch(target.stale))],
      ["release", () => admin.post(`${target.path}/release`, undefined, ifMatch(target.stale))],
      ["unrelease", () => admin.post(`${target.path}/unrelease`, undefined, ifMatch(target.stale))],
      ["publish", () => admin.post(`${target.path}/publish`, undefined, ifMatch(target.stale))],
      ["discard", () => admin.post(`${target.path}/discard`, undefined, ifMatch(target.stale))],
      ["remove", () => admin.delete(target.path, ifMatch(target.stale))],
      [
        "restore",
        () =>
          admin.post(
            `${target.path}/revisions/${target.revision}/restore`,
            undefined,
            ifMatch(target.stale),
          ),
      ],
    ] as const
  ).map(([write, run]): Case => [`admin: a stale If-Match on ${write}`, run, 412]),
  [
    "admin: the current version as a weak ETag (If-Match compares strongly)",
    () => admin.patch(target.path, { title: "Lost" }, { "if-match": `W/"${target.current}"` }),
    412,
  ],
  [
    "admin: an unterminated If-Match",
    () => admin.patch(target.path, { title: "Lost" }, { "if-match": `"${target.current}` }),
    412,
  ],
  [
    "admin: a restore without If-Match",
    () => admin.post(`${target.path}/revisions/${target.revision}/restore`),
    428,
  ],
  [
    "admin: a restore of another blog's revision",
    () =>
      admin.post(
        `${target.path}/revisions/${target.othersRevision}/restore`,
        undefined,
        ifMatch(target.current),
      ),
    404,
  ],
  [
    "admin: a restore of a malformed revision id",
    () => admin.post(`${target.path}/revisions/rev_../restore`, undefined, ifMatch(target.current)),
    400,
  ],
  // bad schedules (admin.yaml, "Schedules"): each a 400 naming the field, nothing stored
  ...(
    [
      ["a time in the past", { publishAt: "2020-01-01T00:00:00Z" }],
      ["a time beyond the bound", { publishAt: "2100-01-01T00:00:00Z" }],
      ["a date that does not exist", { publishAt: "2030-02-30T09:00:00Z" }],
      ["a time that is not a date-time", { publishAt: "tomorrow 9am" }],
      ["a number for a time", { unreleaseAt: 1893456000 }],
      [
        "an unrelease before the publish",
        {
          publishAt: "2030-01-02T09:00:00Z",
          unreleaseAt: "2030-01-01T09:00:00Z",
        },
      ],
      ["an unknown field", { releaseAt: "2030-01-01T09:00:00Z" }],
      ["nothing at all", {}],
    ] as const
  ).map(
    ([what, body]): Case => [
      `admin: a schedule with ${what}`,
      () => admin.call("PUT", `${target.path}/schedule`, body, ifMatch(target.current)),
      400,
    ],
  ),
  [
    "admin: a history cursor not made by the server",
    () => admin.get(`${target.path}/revisions?cursor=WzEsImV2aWwiXQ`),
    400,
  ],
  // bodies of the open operations (README, ADMIN_BODY_LIMIT_BYTES; admin.yaml, 413 and 415)
  ...["/session", "/setup", "/invitations/lookup", "/invitations/accept"].flatMap(
    (path): Case[] => [
      [
        `admin: ${path} with a 20 KB body (over ADMIN_BODY_LIMIT_BYTES, 16 KB)`,
        () => openPost(path, JSON.stringify({ token: "t".repeat(20 * 1024) })),
        413,
      ],
      [
        `admin: ${path} with 1.4 million nested arrays gzipped (2,751 bytes)`,
        () => openPost(path, GZIP_BOMB, { "content-encoding": "gzip" }),
        415,
      ],
      [
        `admin: ${path} with 16,000 [ (within the byte limit, nested past the bound)`,
        () => openPost(path, "[".repeat(16_000)),
        400,
      ],
    ],
  ),
  [
    "admin: sign-in deflated",
    () =>
      openPost("/session", deflateSync(JSON.stringify(OWNER)), { "content-encoding": "deflate" }),
    415,
  ],
  [
    "admin: sign-in in brotli",
    () =>
      openPost("/session", brotliCompressSync(JSON.stringify(OWNER)), { "content-encoding": "br" }),
    415,
  ],
  [
    "admin: sign-in in UTF-16",
    () =>
      openPost("/session", Buffer.from(JSON.stringify(OWNER), "utf16le"), {
        "content-type": "application/json; charset=utf-16le",
      }),
    415,
  ],
  [
    "admin: a blog write's large body with no session (never read)",
    () =>
      new AdminClient(server.url).post(`/workspaces/${ws}/blogs`, {
        title: "t",
        bodyMarkdown: "x".repeat(1024 * 1024),
      }),
    401,
  ],
  [
    "admin: unknown fields",
    () => admin.post(`/workspaces/${ws}/blogs`, { title: "t", isAdmin: true }),
    400,
  ],
  [
    "admin: a __proto__ key",
    () => admin.postRaw(`/workspaces/${ws}/blogs`, '{"title":"t","__proto__":{"polluted":true}}'),
    400,
  ],
  [
    "admin: a constructor key",
    () =>
      admin.postRaw(
        `/workspaces/${ws}/blogs`,
        '{"title":"t","constructor":{"prototype":{"polluted":true}}}',
      ),
    400,
  ],
  [
    "admin: an operator object as a title",
    () => admin.post(`/workspaces/${ws}/blogs`, { title: { $ne: null } }),
    400,
  ],
  [
    "admin: an operator object as email on sign-in",
    () => admin.post("/session", { email: { $ne: null }, password: "x" }),
    400,
  ],
  [
    "admin: sign-in with an email past 254 characters",
    () => admin.post("/session", { email: `${"a".repeat(250)}@x.example`, password: "x" }),
    400,
  ],
  [
    "admin: sign-in with an array as email",
    () => admin.post("/session", { email: ["a@x.example", "b@x.example"], password: "x" }),
    400,
  ],
  [
    "admin: sign-in with a password past 200 characters (never hashed)",
    () => admin.post("/session", { email: OWNER.email, password: "p".repeat(201) }),
    400,
  ],
  [
    "admin: a title with U+202E (right-to-left override)",
    () => admin.post(`/workspaces/${ws}/blogs`, { title: "invoice\u202Etxt.exe" }),
    400,
  ],
  // tags (admin.yaml, BlogInput.tags): what cannot be normalised is refused, nothing stored
  ...[
    "zero\u200bwidth",
    "soft\u00adhyphen",
    "\ufeffbom",
    "a\u202eb",
    "a\u0007b",
    "㍻".repeat(21),
    "x".repeat(41),
  ].map(
    (tag): Case => [
      `admin: a tag ${JSON.stringify(tag).slice(0, 30)}`,
      () => admin.post(`/workspaces/${ws}/blogs`, { title: "t", tags: ["fine", tag] }),
      400,
    ],
  ),
  [
    "admin: 21 tags",
    () =>
      admin.post(`/workspaces/${ws}/blogs`, {
        title: "t",
        tags: Array.from({ length: 21 }, (_, i) => `t${i}`),
      }),
    400,
  ],
  [
    "admin: member add of an email with no account (202 alike, nothing stored)",
    () => admin.post(`/workspaces/${ws}/members`, { email: "nobody@example.com" }),
    202,
  ],
  // bodies that took the request thread for seconds, or its stack (README, "Production": rendering)
  [
    "admin: 200,000 characters of _a (quadratic emphasis, past the render time limit)",
    () => admin.post(`/workspaces/${ws}/blogs`, { title: "t", bodyMarkdown: fill("_a") }),
    422,
  ],
  [
    "admin: 200,000 > on one line (nesting past the limit; overflowed the stack)",
    () => admin.post(`/workspaces/${ws}/blogs`, { title: "t", bodyMarkdown: fill(">") }),
    422,
  ],
  // who may reach the admin API, and keys hidden by percent-encoding (README, PUBLIC_URL; "Production": the access log)
  [
    "admin: a DNS-rebinding POST /setup (Host and Origin evil.test)",
    () =>
      rawAdmin("POST /api/admin/setup HTTP/1.1\r\nHost: evil.test\r\nOrigin: http://evil.test\r\n"),
    403,
  ],
  [
    "admin: an https:// Origin on the http server",
    () =>
      new AdminClient(server.url, server.url.replace("http:", "https:")).post("/session", {
        email: OWNER.email,
        password: OWNER.password,
      }),
    403,
  ],
  ["admin: HTTP/1.0 with no Host", () => rawAdmin("GET /api/admin/setup HTTP/1.0\r\n"), 403],
  [
    "a percent-encoded key in the consumer path (kept out of the log)",
    () => byId(a.key.replace(/_/g, "%5F")),
    404,
  ],
  // preview keys on every live path, live keys on every preview path (openapi.yaml, "Preview"):
  // the unknown key's 401, decided by the prefix
  // (refused before any read: a blog id no blog has says the same as a real one)
  ...["/blogs", "/blogs/b_x", "/blogs/by-slug/post-1", "/tags", "/changes"].flatMap(
    (path): Case[] => [
      [
        `a preview key on the live ${path}`,
        () => get(`${server.url}/api/consumer${path}`, { "x-api-key": previewKey }),
        401,
      ],
      [
        `a preview key as Bearer on the live ${path}`,
        () => get(`${server.url}/api/consumer${path}`, { authorization: `Bearer ${previewKey}` }),
        401,
      ],
      [`a live key on the preview ${path}`, () => onPreview(path, a.key), 401],
    ],
  ),
  [
    "a live key relabelled cp_preview_ (well-formed, never minted)",
    () => onPreview("/blogs", a.key.replace("cp_live_", "cp_preview_")),
    401,
  ],
  [
    "a preview key relabelled cp_live_",
    () => list({ "x-api-key": previewKey.replace("cp_preview_", "cp_live_") }),
    401,
  ],
  [
    "a preview key reads the draft, on the preview path",
    () => onPreview(`/blogs/${a.draft}`, previewKey),
    200,
  ],
  [
    "a preview key on another workspace's blog",
    () => onPreview(`/blogs/${b.released[0]}`, previewKey),
    404,
  ],
  [
    "a preview key on the token exchange (live only)",
    () => exchange(JSON.stringify({ token: previewLink.token }), previewKey),
    401,
  ],
  // forged preview tokens (openapi.yaml, exchangePreviewToken): one message, 400 or 410
  ["a preview token, genuine", () => exchange(JSON.stringify({ token: previewLink.token })), 200],
  [
    "a preview token with an edited signature",
    () => exchange(JSON.stringify({ token: editedSignature() })),
    400,
  ],
  [
    "a preview token with its payload re-encoded (another blog)",
    () =>
      exchange(
        JSON.stringify({
          token: `${Buffer.from(JSON.stringify([1, a.workspaceId, a.released[0], 9_999_999_999_999])).toString("base64url")}.${previewLink.token.split(".")[1]}`,
        }),
      ),
    400,
  ],
  [
    "a preview token of another workspace",
    () => exchange(JSON.stringify({ token: previewLink.token }), b.key),
    400,
  ],
  ["an expired preview token", () => exchange(JSON.stringify({ token: previewLink.expired })), 410],
  [
    "a preview token without its signature",
    () => exchange(JSON.stringify({ token: previewLink.token.split(".")[0] })),
    400,
  ],
  [
    "a preview token of three parts",
    () => exchange(JSON.stringify({ token: `${previewLink.token}.x` })),
    400,
  ],
  ["a preview token as a number", () => exchange(JSON.stringify({ token: 1 })), 400],
  [
    "a preview token as an operator object",
    () => exchange(JSON.stringify({ token: { $ne: null } })),
    400,
  ],
  ["no preview token", () => exchange("{}"), 400],
  [
    "a preview token body of 5 KB",
    () => exchange(JSON.stringify({ token: "a".repeat(5000) })),
    413,
  ],
  ["a preview token body that is not JSON", () => exchange("token=abc"), 400],
  // access tokens (admin.yaml, the AccessToken scheme): only in Authorization, only their scopes
  [
    "an access token in the query string",
    () => get(`${server.url}/api/admin/workspaces?access_token=${accessToken.reader}`, {}),
    400,
  ],
  [
    "an access token, genuine, reading blogs",
    () => asScript(accessToken.reader, "GET", `/workspaces/${ws}/blogs`),
    200,
  ],
  [
    "an access token past its scopes (blogs:read creating a blog)",
    () =>
      asScript(accessToken.reader, "POST", `/workspaces/${ws}/blogs`, {
        title: "Scripted",
        bodyMarkdown: "x",
      }),
    403,
  ],
  [
    "an access token making an access token",
    () =>
      asScript(accessToken.reader, "POST", "/me/tokens", {
        name: "more",
        scopes: ["blogs:write"],
        expiresAt: new Date(Date.now() + 86_400_000 * 3).toISOString(),
      }),
    403,
  ],
  ["a revoked access token", () => asScript(accessToken.revoked, "GET", "/workspaces"), 401],
  [
    "an access token of a member removed since",
    () => asScript(accessToken.removed, "GET", `/workspaces/${ws}/blogs`),
    404,
  ],
  [
    "an access token with a wrong checksum",
    () =>
      asScript(
        accessToken.reader.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
        "GET",
        "/workspaces",
      ),
    401,
  ],
  ["a consumer key as an access token", () => asScript(a.key, "GET", "/workspaces"), 401],
  // imports and exports (admin.yaml, importBlogs, exportWorkspace): a token's scopes and its
  // member's place hold; an entry is data, never a query; `source` is a label, never a path read
  [
    "an import by an access token past its scopes (blogs:read)",
    () =>
      asScript(accessToken.reader, "POST", `/workspaces/${ws}/imports`, { source: "s", blogs: [] }),
    403,
  ],
  [
    "an import by the access token of a member removed since",
    () =>
      asScript(accessToken.removed, "POST", `/workspaces/${ws}/imports`, {
        source: "s",
        blogs: [],
      }),
    404,
  ],
  [
    "an export by the access token of a member removed since",
    () => asScript(accessToken.removed, "GET", `/workspaces/${ws}/export`),
    404,
  ],
  [
    "an import entry whose title is an operator object",
    () =>
      admin.post(`/workspaces/${ws}/imports`, {
        source: "s",
        dryRun: true,
        blogs: [{ ...HOSTILE_ENTRY, title: { $gt: "" } }],
      }),
    400,
  ],
  [
    "an import entry with a field the spec does not name",
    () =>
      admin.post(`/workspaces/${ws}/imports`, {
        source: "s",
        dryRun: true,
        blogs: [{ ...HOSTILE_ENTRY, workspaceId: "someone-else" }],
      }),
    400,
  ],
  [
    "an import whose source names a file on the server (a label: nothing is read)",
    () =>
      admin.post(`/workspaces/${ws}/imports`, { source: "/etc/passwd", dryRun: true, blogs: [] }),
    200,
  ],
  [
    "an access token as a consumer key",
    () => list({ authorization: `Bearer ${accessToken.reader}` }),
    401,
  ],
  // password-reset links (admin.yaml, completePasswordReset): one 410 for every link that cannot
  // be used, 400 for what cannot be a token; a server without mail answers 501 to an ask
  [
    "a used password-reset link",
    () => resetWith({ token: resetLink.used, newPassword: "a new passphrase" }),
    410,
  ],
  [
    "an expired password-reset link",
    () => resetWith({ token: resetLink.expired, newPassword: "a new passphrase" }),
    410,
  ],
  [
    "a forged password-reset token (never issued)",
    () => resetWith({ token: "F".repeat(43), newPassword: "a new passphrase" }),
    410,
  ],
  [
    "a password-reset token of 42 characters",
    () => resetWith({ token: "F".repeat(42), newPassword: "a new passphrase" }),
    400,
  ],
  [
    "a password-reset token as an operator object",
    () => resetWith({ token: { $ne: null }, newPassword: "a new passphrase" }),
    400,
  ],
  [
    "a password-reset token in the query string, none in the body",
    () =>
      openPost(
        `/password-resets/complete?token=${resetLink.expired}`,
        JSON.stringify({ newPassword: "a new passphrase" }),
      ),
    400,
  ],
  [
    "a password reset to 9 characters",
    () => resetWith({ token: resetLink.expired, newPassword: "123456789" }),
    400,
  ],
  [
    "a password reset with an extra field (userId)",
    () => resetWith({ token: resetLink.expired, newPassword: "a new passphrase", userId: "usr_x" }),
    400,
  ],
  [
    "a password-reset ask for an operator object",
    () => openPost("/password-resets", JSON.stringify({ email: { $gt: "" } })),
    400,
  ],
  [
    "a password-reset ask on a server that sends no mail",
    () => openPost("/password-resets", JSON.stringify({ email: OWNER.email })),
    501,
  ],
  // email-change links (admin.yaml, confirmEmailChange): one 410 for every link that cannot be
  // used, 400 for what cannot be a token
  ["a used email-change link", () => confirmWith({ token: emailLink.used }), 410],
  ["an expired email-change link (25 hours)", () => confirmWith({ token: emailLink.expired }), 410],
  [
    "an email-change link replaced by a newer request",
    () => confirmWith({ token: emailLink.replaced }),
    410,
  ],
  ["a forged email-change token (never issued)", () => confirmWith({ token: "E".repeat(43) }), 410],
  ["an email-change token of 44 characters", () => confirmWith({ token: "E".repeat(44) }), 400],
  [
    "an email-change token with a character outside base64url",
    () => confirmWith({ token: `${"E".repeat(42)}=` }),
    400,
  ],
  ["an email-change token as an operator object", () => confirmWith({ token: { $ne: null } }), 400],
  [
    "an email-change token in the query string, none in the body",
    () => openPost(`/email-changes/confirm?token=${emailLink.expired}`, JSON.stringify({})),
    400,
  ],
  [
    "an email-change token in the query string beside one in the body",
    () =>
      openPost(
        `/email-changes/confirm?token=${emailLink.expired}`,
        JSON.stringify({ token: emailLink.expired }),
      ),
    400,
  ],
  [
    "an email-change confirmation with an extra field (email)",
    () => confirmWith({ token: emailLink.expired, email: "attacker@example.com" }),
    400,
  ],
  [
    "an email change with an operator object for the new email",
    () => admin.post("/me/email", { newEmail: { $gt: "" }, currentPassword: OWNER.password }),
    400,
  ],
  [
    "an email change with an operator object for the password",
    () => admin.post("/me/email", { newEmail: "o2@example.com", currentPassword: { $ne: null } }),
    400,
  ],
  [
    "an email change by an access token (a session only)",
    () =>
      asScript(accessToken.reader, "POST", "/me/email", {
        newEmail: "o2@example.com",
        currentPassword: OWNER.password,
      }),
    403,
  ],
  [
    "an email change to the account's own email",
    () => admin.post("/me/email", { newEmail: OWNER.email, currentPassword: OWNER.password }),
    409,
  ],
  // two-step sign-in (admin.yaml, signInWithCode, startTwoStep, setOwnerTwoStep): a code is
  // accepted once; what cannot be a challenge or a code is 400; nothing is stored by a refusal
  [
    "a TOTP code replayed within its step (accepted once already)",
    () => codeWith({ challenge: twoStep.challenge, code: twoStep.usedCode }),
    401,
  ],
  [
    "a TOTP code of a step before the last one accepted",
    () => codeWith({ challenge: twoStep.challenge, code: twoStep.earlierCode }),
    401,
  ],
  [
    "a recovery code used already",
    () => codeWith({ challenge: twoStep.challenge, code: twoStep.usedRecovery }),
    401,
  ],
  [
    "a forged sign-in challenge (never issued)",
    () => codeWith({ challenge: "C".repeat(43), code: "123456" }),
    401,
  ],
  [
    "a sign-in challenge of 42 characters",
    () => codeWith({ challenge: "C".repeat(42), code: "123456" }),
    400,
  ],
  [
    "a sign-in challenge as an operator object",
    () => codeWith({ challenge: { $ne: null }, code: "123456" }),
    400,
  ],
  [
    "a code as an operator object",
    () => codeWith({ challenge: twoStep.challenge, code: { $regex: "." } }),
    400,
  ],
  [
    "a code with a space (apps show 123 456)",
    () => codeWith({ challenge: twoStep.challenge, code: "123 456" }),
    400,
  ],
  [
    "a recovery code in upper case",
    () => codeWith({ challenge: twoStep.challenge, code: twoStep.usedRecovery.toUpperCase() }),
    400,
  ],
  [
    "a second step with an extra field (userId)",
    () => codeWith({ challenge: twoStep.challenge, code: "123456", userId: "usr_x" }),
    400,
  ],
  [
    "a sign-in challenge in the query string, none in the body",
    () =>
      openPost(`/session/two-step?challenge=${twoStep.challenge}`, JSON.stringify({ code: "1" })),
    400,
  ],
  [
    "two-step started by an access token (a session only)",
    () => asScript(accessToken.reader, "POST", "/me/two-step", { currentPassword: OWNER.password }),
    403,
  ],
  [
    "a two-step confirmation with nothing waiting",
    () => admin.post("/me/two-step/confirm", { code: "123456" }),
    409,
  ],
  [
    "owners' two-step rule turned on by an owner without it",
    () => admin.call("PUT", `/workspaces/${ws}/owner-two-step`, { required: true }),
    409,
  ],
  [
    "owners' two-step rule as a string",
    () => admin.call("PUT", `/workspaces/${ws}/owner-two-step`, { required: "true" }),
    400,
  ], // authors (admin.yaml, "Authors"): plain text and public URLs only
  [
    "an author's name as an operator object",
    () => admin.post(`/workspaces/${ws}/authors`, { name: { $gt: "" } }),
    400,
  ],
  [
    "an author's slug with a dot",
    () => admin.post(`/workspaces/${ws}/authors`, { name: "A", slug: "a.b" }),
    400,
  ],
  [
    "an author's bio as an array",
    () => admin.post(`/workspaces/${ws}/authors`, { name: "A", bio: ["x"] }),
    400,
  ],
  [
    "an author's bio with an escape character",
    () => admin.post(`/workspaces/${ws}/authors`, { name: "A", bio: "\u001b[31mred" }),
    400,
  ],
  [
    "an author's avatar as a data: URL",
    () =>
      admin.post(`/workspaces/${ws}/authors`, {
        name: "A",
        avatarUrl: "data:image/png;base64,AAAA",
      }),
    400,
  ],
  [
    "an author's website that the URL parser refuses",
    () =>
      admin.post(`/workspaces/${ws}/authors`, { name: "A", websiteUrl: "http://exa mple.com/" }),
    400,
  ],
  [
    "an author of no workspace changed",
    () => admin.patch(`/workspaces/${ws}/authors/au_nobody`, { name: "B" }),
    404,
  ],
  [
    "an author ID with a $",
    () => admin.patch(`/workspaces/${ws}/authors/au_$where`, { name: "B" }),
    400,
  ], // media (admin.yaml uploadMedia; openapi.yaml getMediaFile): bytes decide, nothing stored
  [
    "an SVG uploaded as an image",
    () => upload('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    415,
  ],
  [
    "an HTML page named .png, sent as image/png",
    () => upload("<!doctype html><script>alert(1)</script>", "?name=x.png", "image/png"),
    415,
  ],
  ["an upload sent as text/html", () => upload(PNG, "?name=x.png", "text/html"), 415],
  [
    "a gzipped image (a Content-Encoding)",
    () => upload(gzipSync(PNG), "?name=x.png", "image/png", { "content-encoding": "gzip" }),
    415,
  ],
  ["an upload without a name", () => upload(PNG, ""), 400],
  ["an upload named twice", () => upload(PNG, "?name=a.png&name=b.png"), 400],
  [
    "an upload whose alt has an escape character",
    () => upload(PNG, "?name=a.png&alt=%1B[31m"),
    400,
  ],
  ["an empty upload", () => upload(Buffer.alloc(0)), 415],
  ["a media ID with a $", () => admin.get(`/workspaces/${ws}/media/med_$where`), 400],
  [
    "an alt text as an operator object",
    () => admin.patch(`/workspaces/${ws}/media/med_nobody`, { alt: { $gt: "" } }),
    400,
  ],
  ["a library image of no workspace", () => admin.get(`/workspaces/${ws}/media/med_nobody`), 404],
  ["a public image that does not exist", () => mediaFile("med_nobody0000000000/x.png"), 404],
  ["a public image's name climbing out", () => mediaFile("med_nobody/..%2F..%2Fetc%2Fpasswd"), 400],
  ["a width outside the documented set", () => mediaFile("med_nobody/x.png?w=100000"), 400],
  ["a width in exponent form", () => mediaFile("med_nobody/x.png?w=1e3"), 400],
  ["a format that is not an image", () => mediaFile("med_nobody/x.png?fm=svg"), 400],
];

describe("hostile input: exact status, JSON {message}, no 500, nothing stored changes", () => {
  it(`${cases.length} cases`, async () => {
    // The seeding above wrote blogs from outside the server: its webhook relay moves their
    // events out of the outboxes a few seconds later (README, "Webhooks"). Let it, first.
    await waitFor(
      "the seeded blogs' webhook outboxes relayed",
      async () => (await t.db.collection("blogs").countDocuments({ webhookPending: true })) === 0,
      30_000,
    );
    const before = await snapshot();
    const results: string[] = [];
    for (const [name, run, expected] of cases) {
      const res = await run();
      results.push(
        `${res.status === expected ? "ok  " : "FAIL"} ${res.status} (want ${expected}) ${name}`,
      );
      if (res.status >= 400 && "body" in res && res.body !== undefined) {
        const fields = res.status === 412 ? ["message", "current"] : ["message"];
        expect(Object.keys(res.body as object), name).toEqual(fields);
      }
    }
    const failures = results.filter((r) => r.startsWith("FAIL"));
    expect(failures, results.join("\n")).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await snapshot()).toBe(before);
  });
});
