// Contract tests written by a tool that is not us: Schemathesis generates requests
// from openapi/openapi.yaml and openapi/admin.yaml, sends them to a real Pressroom server on a
// real port, and checks every response against the spec. Thousands of cases, zero failures.
//
// Schemathesis comes from PyPI, pinned in test/support/schemathesis-requirements.txt, installed into
// .venv-schemathesis/ on first use (test/support/schemathesis.ts). Every run writes its config,
// console output and JUnit report to test-output/schemathesis/<run>/ (sanitised by schemathesis:
// no key, cookie or password in them). Reproduce a run with PRESSROOM_ST_SEED=<seed it printed>.
// PRESSROOM_ST_DEPTH=short (the second Node line of .ci/run) gives the fuzzing and stateful phases
// a quarter of their examples (maxExamples below).
//
// Runs:
//   consumer-key     openapi.yaml with a valid x-api-key (the ApiKeyHeader scheme)
//   consumer-no-key  openapi.yaml with no credentials at all: every answer must be a
//                    documented 401
//   consumer-preview openapi.yaml at its preview server (/api/preview) with a preview key: the
//                    preview perspective's answers (no-store, Pressroom-Perspective) conform too
//   admin            admin.yaml signed in as the owner (the session cookie of POST /setup), with
//                    Origin set to the server's own, as the dashboard sends it
// Every run has all of schemathesis' checks on (`[checks] enabled = true`, the config-file form
// of `--checks all`): not_a_server_error, status_code_conformance, content_type_conformance,
// response_schema_conformance and response_headers_conformance, and the others (positive and
// negative data acceptance, unsupported methods and Allow, ignored auth, use after free,
// resource availability, missing required header, object-level authorization); the test
// asserts that each of them ran. (`--checks all` on the command line would override the
// per-operation exceptions below.) `--workers 1`: with several worker threads, CPython 3.11's
// AST recursion-depth bug (python/cpython#106905, seen here on 3.11.7) turns up through
// Hypothesis as "Runtime Error: AST constructor recursion depth mismatch".
//
// What schemathesis flags that is by design, and how each is handled here:
// - An opaque `cursor` (listBlogs, listAdminBlogs, listAudit). Any string of 1–200 characters is
//   schema-valid, but only a `nextCursor` the server produced is a cursor; anything else gets
//   the documented 400 ("pass a nextCursor unchanged"). JSON Schema cannot say "a value this
//   server made", so positive cases take `cursor` from real `nextCursor`s (a dictionary
//   binding, probability 1). The coverage phase ignores dictionary bindings and sends made-up
//   cursors such as "0"; for these operations, and in that phase only,
//   positive_data_acceptance also accepts 400. Made-up and tampered cursors are asserted
//   exactly (400) in hostile-input.test.ts and audit-log.test.ts.
// - A key's `expiresAt` (mintKey): any date-time is schema-valid, but only one 60 seconds to
//   366 days ahead is accepted (admin.yaml; 400 otherwise), a window relative to "now" that JSON
//   Schema cannot express. Positive cases take it from a dictionary of times in that window;
//   the coverage phase, which ignores dictionaries, may also get 400. The bounds are asserted
//   exactly in key-expiry.test.ts.
// - A blog's `tags` (createBlog, updateBlog, importBlogs): each tag of at most 40 characters is
//   schema-valid, but NFKC can lengthen one (`㍻` is `平成`, U+FDFA is 18 characters) past the
//   40 code points its normal form may have (admin.yaml; the documented 400 naming it), which
//   JSON Schema cannot express. Their cases are generated in ASCII, whose normal form is
//   never longer; the rule, and Unicode titles and bodies, are asserted exactly in
//   tag-normal-form.test.ts and hostile-input.test.ts.
// - An import's authors (importBlogs `ImportEntry.authors`, `ImportRequest.authors`): a slug
//   named twice is taken once (no 400), and authors it creates count toward the workspace's 200,
//   past which the import is the documented 409 (as createAuthor's); a case may fill the run's
//   workspace, after which createAuthor answers its documented 409. Asserted exactly in
//   test/server/transfer-authors.test.ts and test/admin/import-export-api.test.ts.
// - DELETE /session (signOut) ends the session the run is signed in with: every later case
//   would be a 401 and test nothing. It is excluded (`--exclude-operation-id signOut`);
//   admin-api.test.ts covers signing out, including that the old cookie stops working.
//   DELETE /me/sessions (signOutEverywhere) ends it too, and is excluded the same way;
//   team-account.test.ts covers it.
// - changeMemberRole is sent for the run's owner only (a dictionary with probability 1): it may
//   never demote them (they are the workspace's last owner: 409), and promoting another member
//   would let later cases demote or remove the run's owner, who would then test 403s and 404s
//   only. team-roles.test.ts covers role changes by role.
// - removeMember of oneself is leaving (any member may); in Oscar's workspace the run's owner
//   is a member, so a case may leave it (204), after which it answers 404 there (documented).
// - POST /setup answers 409 once set up (documented); the run sees 400/409/415, never 201.
// - POST /session: the generated credentials are wrong (401) and repeated failures for one
//   email are throttled (429 with Retry-After): both documented, both checked.
// - removeMember of the owner answers 409 (documented).
// - addMember answers 202 alike whether or not an account uses the email (README, "First run"): its 404
//   means only a workspace the user cannot see, so every check runs on it.
// - Usage spans (getKeyUsage, getWorkspaceUsage): any two date-times are schema-valid, but a
//   span must run forward, last at most 90 days and, per hour, start within the last 48 hours
//   (admin.yaml; the documented 400). Bounds relative to the time of the request are beyond
//   JSON Schema, so for these two operations positive_data_acceptance also accepts 400; the
//   400s are asserted exactly in test/admin/key-usage.test.ts.
// Everything else schemathesis found was a real mismatch and was fixed in the server or the
// spec; test/hardening/contract-findings.test.ts pins each one down.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { collections } from "../../server/src/platform/db/collections.js";
import { previewTokens } from "../../server/src/preview/preview-tokens.js";
import { createStores } from "../../server/src/stores.js";
import { AdminClient, ANY_VERSION, OWNER } from "../support/admin-client.js";
import { get, type SeededWorkspace, seedWorkspace, stores } from "../support/fixtures.js";
import { unthrottle } from "../support/rate-limits.js";
import {
  ensureSchemathesis,
  envPlaceholder,
  failureReport,
  RUN_TIMEOUT_MS,
  type RunResult,
  runSchemathesis,
  type Schemathesis,
  statusTable,
  type TomlTable,
} from "../support/schemathesis.js";
import { startSmtpSink } from "../support/smtp-sink.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Me = components["schemas"]["Me"];
type AdminBlog = components["schemas"]["AdminBlog"];
type MintedKey = components["schemas"]["MintedKey"];

const OPENAPI = fileURLToPath(new URL("../../openapi/", import.meta.url));
const CONSUMER_SPEC = path.join(OPENAPI, "openapi.yaml");
const ADMIN_SPEC = path.join(OPENAPI, "admin.yaml");

/**
 * A run is cut when it stops making progress (RUN_IDLE_TIMEOUT_MS), not after fixed seconds: on
 * a busy machine a healthy run takes several times as long. The test's own limit only backs
 * up the run's; the setup's covers building the venv (within pip's own limit) and seeding.
 */
const RUN_LIMIT = { timeout: RUN_TIMEOUT_MS + 60_000 };
/**
 * Node's `--max-http-header-size` (16,384 by default), as the server in this process applies it:
 * a request head of this many bytes gets 431.
 */
const NODE_MAX_HEADER_BYTES = http.maxHeaderSize;
const SETUP_TIMEOUT_MS = 10 * 60_000;
/** Generated cases each spec must reach (the consumer's two runs together). */
const MIN_CASES_PER_SPEC = 1000;
/** Every check of schemathesis 4.32, each of which must have run; the first five are the ones every run has always had. */
const EVERY_CHECK = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
  "response_headers_conformance",
  "positive_data_acceptance",
  "negative_data_rejection",
  "missing_required_header",
  "unsupported_method",
  "allow_header_conformance",
  "use_after_free",
  "ensure_resource_availability",
  "ignored_auth",
  "object_level_authorization",
];
/**
 * Every check schemathesis has, on: the config-file form of `--checks all`. (`--checks all` on
 * the command line would override the per-operation exceptions below: a check named on the
 * command line beats a config file's `enabled = false`.)
 */
const ALL_CHECKS: TomlTable = { enabled: true };
/**
 * Each run stands alone, as on a fresh clone: no Hypothesis example database and no
 * schemathesis cache carried over from an earlier run (their server and data are gone).
 */
const FRESH: TomlTable = { cache: { enabled: false }, generation: { database: "none" } };
/**
 * How deep the runs go: `PRESSROOM_ST_DEPTH=short` (the second Node line of .ci/run) gives each
 * run a quarter of its `--max-examples`, which bounds its fuzzing and stateful phases. The examples
 * and coverage phases (every operation's boundary and invalid values) stay whole, and so do the
 * operations, the checks and every assertion below.
 */
const DEPTH = process.env.PRESSROOM_ST_DEPTH || "full";
if (DEPTH !== "full" && DEPTH !== "short") {
  throw new Error(`PRESSROOM_ST_DEPTH is "${DEPTH}": "full" (the default) or "short"`);
}
const SHORT = DEPTH === "short";
const maxExamples = (full: number): string[] => [
  "--max-examples",
  String(SHORT ? Math.ceil(full / 4) : full),
];
/** Options common to every run. A fixed seed only when asked for, to reproduce a run. */
const COMMON_ARGS = [
  "--workers",
  "1",
  "--request-timeout",
  "10",
  ...(process.env.PRESSROOM_ST_SEED ? ["--seed", process.env.PRESSROOM_ST_SEED] : []),
];
/**
 * schemathesis' default expectations of positive_data_acceptance, plus the 400 of a made-up
 * cursor (or of a usage span out of bounds).
 */
const ACCEPTED_WITH_MADE_UP_CURSOR = ["2xx", "3xx", 400, 401, 403, 404, 409, 429, "5xx"];
/**
 * schemathesis' default expectations of negative_data_rejection, plus 431: an over-long ID with
 * over-long query parameters passes Node's 16 KB of request head, which every consumer
 * operation documents (openapi.yaml); each alone stays under it (a 400).
 */
const REJECTED_WITH_431 = [400, 401, 403, 404, 405, 406, 409, 415, 422, 428, 429, 431, "5xx"];
/** Every check, on, with the consumer API's rejections (REJECTED_WITH_431). */
const CONSUMER_CHECKS: TomlTable = {
  ...ALL_CHECKS,
  negative_data_rejection: { "expected-statuses": REJECTED_WITH_431 },
};
/** schemathesis' default expectations of negative_data_rejection, plus 413. */
const REJECTED_WITH_413 = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 428, 429, "5xx"];
/**
 * schemathesis' default expectations of positive_data_acceptance, plus 412: a blog write's
 * `If-Match` that the schema admits names a version the blog does not have (admin.yaml,
 * "Conditional writes"): the 412 the spec describes, a pairing the schema cannot express.
 */
const ACCEPTED_WHEN_STALE = ["2xx", "3xx", 401, 403, 404, 409, 412, 429, "5xx"];
/**
 * schemathesis' default expectations of missing_required_header, plus 428: a blog write without
 * its required `If-Match` (RFC 6585; admin.yaml, PreconditionRequired).
 */
const REJECTED_WITHOUT_IF_MATCH = [400, 401, 403, 406, 415, 422, 428];
/**
 * An operation whose positive_data_acceptance expects `statuses` (and whose other checks
 * `more` configures), in every phase too.
 */
const accepting = (
  operationId: string,
  statuses: (string | number)[],
  more: TomlTable = {},
): TomlTable => {
  const checks = { positive_data_acceptance: { "expected-statuses": statuses }, ...more };
  return { "include-operation-id": operationId, checks, phases: { coverage: { checks } } };
};
const staleVersionsAccepted = (operationId: string) =>
  accepting(operationId, ACCEPTED_WHEN_STALE, {
    missing_required_header: { "expected-statuses": REJECTED_WITHOUT_IF_MATCH },
  });
// In every phase, too: a real cursor sent with a `tag` set other than its own is a 400
// (openapi.yaml, "Tags"), a pairing the schema cannot express.
const madeUpCursorsAccepted = (operationId: string) =>
  accepting(operationId, ACCEPTED_WITH_MADE_UP_CURSOR);

/** A 2 × 2 PNG of one colour: real bytes for the library's uploads. */
const tinyPng = (colour: string) =>
  sharp({ create: { width: 2, height: 2, channels: 3, background: colour } })
    .png()
    .toBuffer();

let st: Schemathesis;
let t: TestDb;
let server: TestServer;
let alpha: SeededWorkspace;
let beta: SeededWorkspace;
let betaOnlySlug: string;
let owner: AdminClient;
const consumerRuns: RunResult[] = [];

/** Asserts a clean run: exit 0, no failure, no error, every response check exercised. */
function expectClean(run: RunResult): void {
  const report = failureReport(run);
  expect(run.timedOut, report).toBe(false);
  expect(run.failures, report).toEqual([]);
  expect(run.errors, report).toEqual([]);
  expect(run.junit, report).toMatchObject({ failures: 0, errors: 0 });
  expect(run.exitCode, report).toBe(0);
  // The summary's count is the one printed; the event stream must agree with it.
  expect(run.generated, report).not.toBeNull();
  expect(run.recordedCases, report).toBe(run.generated);
  for (const check of EVERY_CHECK) {
    expect(run.checksRun.get(check) ?? 0, `${check} never ran\n${report}`).toBeGreaterThan(0);
  }
  // A 431 (documented on every operation) is Node's answer to a head past its 16 KB, and only
  // to one: a smaller request refused so would be a server that reads less than it says.
  expect(
    run.headsOf431.filter((h) => h.bytes < NODE_MAX_HEADER_BYTES),
    report,
  ).toEqual([]);
}

function printRun(title: string, run: RunResult): void {
  console.log(
    [
      `schemathesis ${title}: ${run.generated} cases in ${run.seconds} s ` +
        `(${[...run.casesByPhase].map(([phase, n]) => `${phase} ${n}`).join(", ")}), ` +
        `${run.failures.length} failures, exit ${run.exitCode}, seed ${run.seed}`,
      `  $ ${run.command}`,
      statusTable(run),
      ...(run.headsOf431.length === 0
        ? []
        : [
            `  431 for heads of ${run.headsOf431.map((h) => `${h.bytes} B (${h.operation})`).join(", ")}`,
          ]),
    ].join("\n"),
  );
}

const statusesOf = (run: RunResult, operation: string) => [
  ...(run.statuses.get(operation)?.keys() ?? []),
];

beforeAll(async () => {
  st = await ensureSchemathesis();
  console.log(
    `schemathesis ${st.version} on Python ${st.pythonVersion} (${st.python}), ` +
      `${st.reused ? "venv reused" : "venv created"} in ${st.seconds} s`,
  );
  t = await useTestDb();
  // With mail, as a deployment that sends it: requestPasswordReset answers 202 (without, 501).
  const sink = await startSmtpSink();
  server = await startTestServer(t.db, {
    SMTP_URL: sink.url,
    MAIL_FROM: "Pressroom <pressroom@example.com>",
  });
  alpha = await seedWorkspace(t.db, "Alpha", 12);
  beta = await seedWorkspace(t.db, "Beta", 2);
  // A run sends about 1,300 requests with Alpha's key in 40-90 s: over the default limit of
  // 1,200 a minute on a fast machine (README, "Rate limits"), and a 429 would end its paths.
  await unthrottle(t.db, alpha.keyId);
  await unthrottle(t.db, beta.keyId);
  // Beta's released slugs (post-0, post-1) are Alpha's too: this one is Beta's alone.
  betaOnlySlug = (
    await stores(t.db).blogs.create(beta.workspaceId, {
      title: "Beta only",
      bodyMarkdown: "Only in Beta.",
      release: true,
    })
  ).slug;
  // Alpha's authors (openapi.yaml, "Authors"): the spec's example slug, and one of the slugs'
  // dictionary (getAuthorBySlug shares `path.slug` with getBlogBySlug), named by tagged blogs.
  const authors = createStores(t.db).authors;
  const ada = await authors.create(alpha.workspaceId, {
    name: "Ada Lovelace",
    bio: "Writes about analytical engines.",
    websiteUrl: "https://example.com/ada",
  });
  const draftSlug = await authors.create(alpha.workspaceId, { name: "A", slug: "alpha-draft" });
  // Alpha's blogs with the spec's example tags (openapi.yaml, Tag): tag pages with content.
  for (const tags of [["release-notes"], ["product", "c++"], ["release-notes", "product"]]) {
    await stores(t.db).blogs.create(alpha.workspaceId, {
      title: `Tagged ${tags.join(" ")}`,
      bodyMarkdown: "Tagged.",
      tags,
      authorIds: [ada._id, draftSlug._id],
      release: true,
    });
  }
  owner = new AdminClient(server.url);
  expect((await owner.post("/setup", OWNER)).status).toBe(201);
}, SETUP_TIMEOUT_MS);

describe("schemathesis: consumer API (openapi/openapi.yaml)", () => {
  it("with a valid x-api-key: every generated case conforms", RUN_LIMIT, async () => {
    const key = { "x-api-key": alpha.key };
    const cursorOf = async (limit: number, tag = "") => {
      const page = await get(`${server.url}/api/consumer/blogs?limit=${limit}${tag}`, key);
      return (page.body as { nextCursor: string }).nextCursor;
    };
    const tokenOf = async (query: string) =>
      (
        (await get(`${server.url}/api/consumer/changes?${query}`, key)).body as {
          nextToken: string;
        }
      ).nextToken;
    const slugsOf = async (ids: string[]) =>
      Promise.all(
        ids.map(
          async (id) =>
            ((await get(`${server.url}/api/consumer/blogs/${id}`, key)).body as { slug: string })
              .slug,
        ),
      );
    const etagOf = async (p: string) =>
      (await get(`${server.url}/api/consumer${p}`, key)).headers.get("etag") ?? "";
    const previewTokenMaker = previewTokens(collections(t.db));
    const run = await runSchemathesis({
      name: "consumer-key",
      st: st.st,
      spec: CONSUMER_SPEC,
      args: ["--url", `${server.url}/api/consumer`, ...COMMON_ARGS, ...maxExamples(80)],
      env: { PRESSROOM_ST_API_KEY: alpha.key },
      config: {
        ...FRESH,
        checks: CONSUMER_CHECKS,
        auth: { openapi: { ApiKeyHeader: { api_key: envPlaceholder("PRESSROOM_ST_API_KEY") } } },
        dictionaries: {
          // Released blogs of the key's workspace (200), and its draft, its removed blog and
          // another workspace's released blog (all 404).
          blogs: { values: [...alpha.released, alpha.draft, alpha.removed, ...beta.released] },
          // The same for getBlogBySlug: Alpha's released slugs (200), its draft's and its
          // removed blog's, and a slug only Beta has (404).
          slugs: {
            values: [...(await slugsOf(alpha.released)), "alpha-draft", "post-101", betaOnlySlug],
          },
          cursors: {
            values: [
              await cursorOf(2),
              await cursorOf(5),
              await cursorOf(11),
              // Bound to their tag sets (openapi.yaml, "Tags").
              await cursorOf(1, "&tag=release-notes"),
              await cursorOf(1, "&tag=release-notes&tag=product"),
              // Bound to their filters (openapi.yaml, "Archives").
              await cursorOf(1, "&featured=false"),
              await cursorOf(1, "&releasedAfter=2000-01-01T00:00:00Z"),
              // Bound to its author (openapi.yaml, "Authors").
              await cursorOf(1, "&author=ada-lovelace"),
            ],
          },
          // Alpha's authors (their blogs' pages), and a slug none has (an empty page).
          authors: { values: ["ada-lovelace", "alpha-draft", "nobody"] },
          etags: {
            values: [
              await etagOf("/blogs"),
              await etagOf(`/blogs/${alpha.released[0]}`),
              // A field set's own ETags (openapi.yaml, "Choosing fields"): 304 only for that set.
              await etagOf("/blogs?fields=id,slug,title"),
              await etagOf(`/blogs/${alpha.released[0]}?fields=title`),
              // A tag set's own ETags, and the tag list's (openapi.yaml, "Tags").
              await etagOf("/blogs?tag=release-notes"),
              await etagOf("/blogs?tag=release-notes&tag=product"),
              // A filter's own ETags (openapi.yaml, "Archives").
              await etagOf("/blogs?featured=false"),
              await etagOf("/blogs?releasedAfter=2000-01-01T00:00:00Z"),
              await etagOf("/tags"),
              // The authors' and an author page's (openapi.yaml, "Authors").
              await etagOf("/authors"),
              await etagOf("/blogs?author=ada-lovelace"),
            ],
          },
          // Tokens the feed issued: one in the middle of the first walk, one caught up.
          tokens: { values: [await tokenOf("limit=2"), await tokenOf("limit=100")] },
          // Preview links' tokens (openapi.yaml, "Preview"): of a released blog and of the
          // draft (200), of the removed blog (410), and of another workspace (400).
          previewTokens: {
            values: await Promise.all(
              [
                [alpha.workspaceId, alpha.released[0] ?? ""],
                [alpha.workspaceId, alpha.draft],
                [alpha.workspaceId, alpha.removed],
                [beta.workspaceId, beta.released[0] ?? ""],
              ].map(async ([w = "", b = ""]) => (await previewTokenMaker.mint(w, b)).token),
            ),
          },
          // Field sets as a site would ask for them; the rest are generated from the pattern.
          fields: { values: ["id,slug,title", "title", "slug,title,slug", "bodyHtml,id"] },
        },
        parameters: {
          "path.blogId": { dictionary: "blogs", probability: 0.5 },
          "path.slug": { dictionary: "slugs", probability: 0.5 },
          "query.cursor": { dictionary: "cursors", probability: 1 },
          "header.If-None-Match": { dictionary: "etags", probability: 0.3 },
          "query.fields": { dictionary: "fields", probability: 0.3 },
          "query.author": { dictionary: "authors", probability: 0.6 },
          // Always an issued token while fuzzing (as cursors): a made-up one is the coverage
          // phase's, where its 400 is expected.
          "query.since": { dictionary: "tokens", probability: 1 },
          "body.token": { dictionary: "previewTokens", probability: 0.6 },
        },
        // A made-up cursor or token matches its pattern, yet no server issued it: 400; a
        // preview token of a blog removed since: 410.
        operations: [
          madeUpCursorsAccepted("listBlogs"),
          madeUpCursorsAccepted("listChanges"),
          accepting("exchangePreviewToken", [...ACCEPTED_WITH_MADE_UP_CURSOR, 410]),
        ],
      },
    });
    consumerRuns.push(run);
    printRun("consumer, valid x-api-key", run);
    expectClean(run);
    // The key worked and real content came back, found and not found.
    expect(statusesOf(run, "GET /blogs")).toContain(200);
    expect(statusesOf(run, "GET /blogs/{blogId}")).toEqual(expect.arrayContaining([200, 404]));
    expect(statusesOf(run, "GET /blogs/by-slug/{slug}")).toEqual(
      expect.arrayContaining([200, 400, 404]),
    );
    expect(statusesOf(run, "GET /changes")).toEqual(expect.arrayContaining([200, 400]));
    expect(statusesOf(run, "GET /tags")).toContain(200);
  });

  it("with a preview key at /api/preview: every generated case conforms", RUN_LIMIT, async () => {
    const minted = await stores(t.db).keys.mint(alpha.workspaceId, "preview", null, {
      kind: "preview",
    });
    await unthrottle(t.db, minted.id);
    const key = { "x-api-key": minted.key };
    const at = (p: string) => get(`${server.url}/api/preview${p}`, key);
    const cursorOf = async (q: string) =>
      ((await at(`/blogs?${q}`)).body as { nextCursor: string }).nextCursor;
    const etagOf = async (p: string) => (await at(p)).headers.get("etag") ?? "";
    const run = await runSchemathesis({
      name: "consumer-preview",
      st: st.st,
      spec: CONSUMER_SPEC,
      args: [
        "--url",
        `${server.url}/api/preview`,
        ...COMMON_ARGS,
        ...maxExamples(50),
        // Served at /api/consumer only (its `servers`), with a live key.
        "--exclude-operation-id",
        "exchangePreviewToken",
      ],
      env: { PRESSROOM_ST_API_KEY: minted.key },
      config: {
        ...FRESH,
        checks: CONSUMER_CHECKS,
        auth: { openapi: { ApiKeyHeader: { api_key: envPlaceholder("PRESSROOM_ST_API_KEY") } } },
        dictionaries: {
          // Released blogs and the draft (200 in preview), the removed blog and Beta's (404).
          blogs: { values: [...alpha.released, alpha.draft, alpha.removed, ...beta.released] },
          slugs: { values: ["alpha-draft", "post-1", "post-101", betaOnlySlug] },
          cursors: {
            values: [await cursorOf("limit=2"), await cursorOf("limit=1&tag=release-notes")],
          },
          etags: {
            values: [
              await etagOf("/blogs"),
              await etagOf(`/blogs/${alpha.draft}`),
              await etagOf("/tags"),
            ],
          },
          tokens: {
            values: [((await at("/changes?limit=2")).body as { nextToken: string }).nextToken],
          },
        },
        parameters: {
          "path.blogId": { dictionary: "blogs", probability: 0.5 },
          "path.slug": { dictionary: "slugs", probability: 0.5 },
          "query.cursor": { dictionary: "cursors", probability: 1 },
          "header.If-None-Match": { dictionary: "etags", probability: 0.3 },
          "query.since": { dictionary: "tokens", probability: 1 },
        },
        operations: [madeUpCursorsAccepted("listBlogs"), madeUpCursorsAccepted("listChanges")],
      },
    });
    consumerRuns.push(run);
    printRun("consumer, preview key at /api/preview", run);
    expectClean(run);
    expect(statusesOf(run, "GET /blogs")).toContain(200);
    expect(statusesOf(run, "GET /blogs/{blogId}")).toEqual(expect.arrayContaining([200, 404]));
    expect(statusesOf(run, "GET /changes")).toContain(200);
    expect(statusesOf(run, "GET /tags")).toContain(200);
  });

  it("with no key: every generated case gets the documented 401", RUN_LIMIT, async () => {
    const run = await runSchemathesis({
      name: "consumer-no-key",
      st: st.st,
      spec: CONSUMER_SPEC,
      args: [
        "--url",
        `${server.url}/api/consumer`,
        ...COMMON_ARGS,
        ...maxExamples(60),
        // No credentials of any kind, not even generated ones.
        "--generation-with-security-parameters",
        "false",
        // The public feeds and library images ask for no key (openapi.yaml, "Feeds", "Media"):
        // the keyed run covers them.
        ...["getRssFeed", "getAtomFeed", "getJsonFeed", "getSitemap", "getMediaFile"].flatMap(
          (id) => ["--exclude-operation-id", id],
        ),
      ],
      config: { ...FRESH, checks: CONSUMER_CHECKS },
    });
    consumerRuns.push(run);
    printRun("consumer, no key", run);
    expectClean(run);
    // The key is read only from a request Node could parse: a head past its 16 KB (a negative
    // case's over-long ID with over-long query parameters, REJECTED_WITH_431) gets the
    // documented 431 before any key is looked at, and only such a head does.
    const statuses = new Set([...run.statuses.values()].flatMap((m) => [...m.keys()]));
    expect([...statuses]).toContain(401);
    expect([...statuses].filter((s) => s !== 401 && s !== 431)).toEqual([]);
  });

  it(`generated at least ${MIN_CASES_PER_SPEC} cases in all`, () => {
    const total = consumerRuns.reduce((sum, r) => sum + (r.generated ?? 0), 0);
    console.log(
      `schemathesis consumer total: ${total} cases (${consumerRuns.map((r) => r.generated).join(" + ")})`,
    );
    expect(consumerRuns).toHaveLength(3);
    expect(total).toBeGreaterThanOrEqual(MIN_CASES_PER_SPEC);
  });
});

describe("schemathesis: admin API (openapi/admin.yaml)", () => {
  it("signed in as the owner: every generated case conforms", RUN_LIMIT, async () => {
    const me = (await owner.get<Me>("/me")).body;
    const ws = me.workspaces[0]?.id ?? "";
    const s = stores(t.db);
    // A member of the owner's workspace (removable: 204; re-added: 409) …
    const mia = await s.users.create({
      email: "mia@example.com",
      name: "Mia Member",
      password: "mia member password",
    });
    await s.workspaces.addMember(ws, mia.email);
    // … and a workspace of someone else that the owner is only a member of (owner-only
    // operations there: 403). Beta, seeded above, has no membership at all (404).
    const oscar = await s.users.create({
      email: "oscar@example.com",
      name: "Oscar Other",
      password: "oscar other password",
    });
    const foreign = await s.workspaces.create("Oscar's desk", oscar._id);
    await s.workspaces.addMember(foreign._id, OWNER.email);
    const blogIds: string[] = [];
    for (const [where, title, release] of [
      [ws, "Spring release notes", true],
      [ws, "A draft about autumn", false],
      [ws, "Winter roadmap", true],
      [foreign._id, "Oscar's column", true],
    ] as const) {
      const created = await owner.post<AdminBlog>(`/workspaces/${where}/blogs`, {
        title,
        bodyMarkdown: `# ${title}\n\nSome *text* and a [link](https://example.com/).`,
        tags: ["seed"],
        coverImageUrl: "https://images.example.com/cover.jpg",
      });
      expect(created.status).toBe(201);
      blogIds.push(created.body.id);
      // A second save, so each blog's history has two revisions to read and restore.
      await owner.patch(
        `/workspaces/${where}/blogs/${created.body.id}`,
        { bodyMarkdown: `# ${title}\n\nEdited once.` },
        ANY_VERSION,
      );
      if (release) {
        const released = await owner.post(
          `/workspaces/${where}/blogs/${created.body.id}/release`,
          undefined,
          ANY_VERSION,
        );
        expect(released.status).toBe(200);
      }
    }
    // Each history's revisions, and a cursor past its newest (two revisions: never null).
    type History = { data: { id: string }[]; nextCursor: string | null };
    const historyOf = async (where: string, id: string | undefined, query = "") =>
      (await owner.get<History>(`/workspaces/${where}/blogs/${id}/revisions${query}`)).body;
    const revisionIds: string[] = [];
    const historyCursors: string[] = [];
    for (const [where, id] of [
      [ws, blogIds[0]],
      [foreign._id, blogIds[3]],
    ] as const) {
      revisionIds.push(...(await historyOf(where, id)).data.map((r) => r.id));
      historyCursors.push((await historyOf(where, id, "?limit=1")).nextCursor ?? "");
    }
    const active = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Website" });
    const revoked = await owner.post<MintedKey>(`/workspaces/${ws}/keys`, { name: "Old app" });
    await owner.post(`/workspaces/${ws}/keys/${revoked.body.key.id}/revoke`);
    const page = await owner.get<{ nextCursor: string }>(`/workspaces/${ws}/blogs?limit=1`);
    const auditPage = await owner.get<{ nextCursor: string }>(`/workspaces/${ws}/audit?limit=1`);
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const author = await owner.post<{ id: string }>(`/workspaces/${ws}/authors`, {
      name: "Ada Lovelace",
    });

    // Two library images, and a cursor past the newest (admin.yaml, "Media").
    const mediaIds: string[] = [];
    for (const shade of ["#123", "#456"]) {
      const res = await fetch(`${server.url}/api/admin/workspaces/${ws}/media?name=seed.png`, {
        method: "POST",
        headers: { "content-type": "image/png", cookie: owner.cookie ?? "", origin: server.url },
        body: new Uint8Array(await tinyPng(shade)),
      });
      expect(res.status).toBe(201);
      mediaIds.push(((await res.json()) as { id: string }).id);
    }
    const mediaPage = await owner.get<{ nextCursor: string }>(`/workspaces/${ws}/media?limit=1`);

    const session = /pressroom_session=([^;]+)/.exec(owner.cookie ?? "")?.[1] ?? "";
    expect(session).not.toBe("");
    const run = await runSchemathesis({
      name: "admin",
      st: st.st,
      spec: ADMIN_SPEC,
      args: [
        "--url",
        `${server.url}/api/admin`,
        ...COMMON_ARGS,
        ...maxExamples(40),
        // Signing out (here or everywhere) would end the run's session; see the top of this file.
        "--exclude-operation-id",
        "signOut",
        "--exclude-operation-id",
        "signOutEverywhere",
      ],
      env: { PRESSROOM_ST_SESSION: session },
      config: {
        ...FRESH,
        // The dashboard's Origin: state-changing requests without it get 403.
        headers: { Origin: server.url },
        auth: { openapi: { SessionCookie: { api_key: envPlaceholder("PRESSROOM_ST_SESSION") } } },
        // A body over the 3 MB limit (a `bodyMarkdown` far past its maxLength, in \u escapes) is
        // rejected with the documented 413, which schemathesis' list of rejections lacks.
        checks: {
          ...ALL_CHECKS,
          negative_data_rejection: { "expected-statuses": REJECTED_WITH_413 },
        },
        dictionaries: {
          workspaces: { values: [ws, foreign._id, beta.workspaceId] },
          blogs: { values: [...blogIds, alpha.released[0] ?? ""] },
          keys: { values: [active.body.key.id, revoked.body.key.id, beta.keyId] },
          users: { values: [me.user.id, mia._id, oscar._id] },
          owners: { values: [me.user.id] },
          emails: { values: [mia.email, oscar.email, OWNER.email, "nobody@example.com"] },
          cursors: { values: [page.body.nextCursor] },
          auditCursors: { values: [auditPage.body.nextCursor] },
          revisions: { values: revisionIds },
          authors: { values: [author.body.id] },
          media: { values: mediaIds },
          mediaCursors: { values: [mediaPage.body.nextCursor] },
          historyCursors: { values: historyCursors },
          expiries: { values: [inDays(1), inDays(30), inDays(365)] },
          tokenExpiries: { values: [inDays(2), inDays(30), inDays(365)] },
        },
        // Real identifiers most of the time, so cases reach the handlers instead of a 404.
        parameters: {
          "path.workspaceId": { dictionary: "workspaces", probability: 0.8 },
          "path.blogId": { dictionary: "blogs", probability: 0.6 },
          "path.keyId": { dictionary: "keys", probability: 0.6 },
          "path.userId": { dictionary: "users", probability: 0.6 },
          "path.revisionId": { dictionary: "revisions", probability: 0.6 },
          "path.authorId": { dictionary: "authors", probability: 0.6 },
          "path.mediaId": { dictionary: "media", probability: 0.6 },
        },
        operations: [
          {
            "include-operation-id": "changeMemberRole",
            parameters: { "path.userId": { dictionary: "owners", probability: 1 } },
          },
          // An author ID the pattern admits but the workspace has not: the 400 naming it
          // (admin.yaml, BlogAuthorIds), a rule of the stored data the schema cannot express.
          {
            ...accepting("createBlog", ACCEPTED_WITH_MADE_UP_CURSOR),
            generation: { codec: "ascii" },
          },
          // An import's entries carry tags under the same rule (and URLs the rule checks).
          {
            "include-operation-id": "importBlogs",
            generation: { codec: "ascii" },
          },
          {
            ...accepting("updateBlog", [...ACCEPTED_WHEN_STALE, 400], {
              missing_required_header: { "expected-statuses": REJECTED_WITHOUT_IF_MATCH },
            }),
            generation: { codec: "ascii" },
          },
          ...[
            "removeBlog",
            "releaseBlog",
            "unreleaseBlog",
            "publishBlogChanges",
            "discardBlogChanges",
            "restoreBlogRevision",
          ].map(staleVersionsAccepted),
          // A schema-valid time in the past or over 366 days ahead is the 400 the spec describes
          // (admin.yaml, "Schedules"), a rule of the clock the schema cannot express.
          accepting("scheduleBlog", [...ACCEPTED_WHEN_STALE, 400], {
            missing_required_header: { "expected-statuses": REJECTED_WITHOUT_IF_MATCH },
          }),
          // A preview URL the schema admits without `{token}`, with credentials or a fragment:
          // the 400 naming the rule (admin.yaml, PreviewUrl), which a pattern would only blur.
          accepting("setPreviewUrl", ACCEPTED_WITH_MADE_UP_CURSOR),
          // A link template the pattern admits without `{slug}`, with credentials or a fragment,
          // or whose host the URL parser refuses: the 400 naming the rule (admin.yaml,
          // FeedLinkTemplate), as for the preview URL.
          accepting("setPublicFeeds", ACCEPTED_WITH_MADE_UP_CURSOR),
          {
            "include-operation-id": "addMember",
            parameters: { "body.email": { dictionary: "emails", probability: 0.6 } },
          },
          {
            "include-operation-id": "requestPasswordReset",
            parameters: { "body.email": { dictionary: "emails", probability: 0.6 } },
          },
          // A schema-valid token that no link holds: the one 410 of every unusable link
          // (admin.yaml, completePasswordReset), which no schema can tell from a live one.
          accepting("completePasswordReset", [...ACCEPTED_WITH_MADE_UP_CURSOR, 410]),
          // The same for an email change's confirmation link (admin.yaml, confirmEmailChange).
          accepting("confirmEmailChange", [...ACCEPTED_WITH_MADE_UP_CURSOR, 410]),
          // A webhook URL the schema admits but the server refuses (`HTTP://0`: no https, a
          // loopback or private address; admin.yaml, WebhookUrl): the 400 the spec describes.
          // An author's avatar or website the pattern admits but the URL parser refuses
          // (admin.yaml, PublicUrlInput) is the same 400.
          ...[
            "getKeyUsage",
            "getWorkspaceUsage",
            "createWebhookEndpoint",
            "updateWebhookEndpoint",
            "createAuthor",
            "updateAuthor",
          ].map(madeUpCursorsAccepted),
          {
            ...madeUpCursorsAccepted("listAdminBlogs"),
            parameters: { "query.cursor": { dictionary: "cursors", probability: 1 } },
          },
          madeUpCursorsAccepted("listWebhookDeliveries"),
          {
            ...madeUpCursorsAccepted("listBlogRevisions"),
            parameters: { "query.cursor": { dictionary: "historyCursors", probability: 1 } },
          },
          {
            ...madeUpCursorsAccepted("listMedia"),
            parameters: { "query.cursor": { dictionary: "mediaCursors", probability: 1 } },
          },
          // Any bytes are a schema-valid `format: binary` body, but only a whole JPEG, PNG, WebP,
          // AVIF or GIF is an image the library takes (admin.yaml uploadMedia): the documented
          // 415, a rule of the bytes the schema cannot express. Real uploads, the 413 and the
          // 422 are asserted exactly in test/media/media-library.test.ts.
          accepting("uploadMedia", [...ACCEPTED_WITH_MADE_UP_CURSOR, 415, 422]),
          {
            ...madeUpCursorsAccepted("listAudit"),
            parameters: { "query.cursor": { dictionary: "auditCursors", probability: 1 } },
          },
          // An expiry the schema admits but not 1 to 366 days ahead: the 400 the spec describes.
          {
            "include-operation-id": "createAccessToken",
            parameters: { "body.expiresAt": { dictionary: "tokenExpiries", probability: 1 } },
            phases: {
              coverage: {
                checks: {
                  positive_data_acceptance: { "expected-statuses": ACCEPTED_WITH_MADE_UP_CURSOR },
                },
              },
            },
          },
          {
            "include-operation-id": "mintKey",
            parameters: { "body.expiresAt": { dictionary: "expiries", probability: 1 } },
            phases: {
              coverage: {
                checks: {
                  positive_data_acceptance: { "expected-statuses": ACCEPTED_WITH_MADE_UP_CURSOR },
                },
              },
            },
          },
        ],
      },
    });
    printRun("admin, signed-in owner", run);
    console.log(`schemathesis admin total: ${run.generated} cases`);
    expectClean(run);
    expect(run.generated ?? 0).toBeGreaterThanOrEqual(MIN_CASES_PER_SPEC);
    // The session held: cases reached the handlers and changed things.
    expect(statusesOf(run, "GET /me")).toContain(200);
    expect(statusesOf(run, "POST /workspaces/{workspaceId}/blogs")).toContain(201);
    expect(statusesOf(run, "POST /workspaces/{workspaceId}/keys")).toContain(201);
    expect(statusesOf(run, "POST /password-resets")).toContain(202);
    expect(statusesOf(run, "POST /me/tokens")).toContain(201);
    expect(statusesOf(run, "POST /password-resets/complete")).toContain(410);
    expect(statusesOf(run, "POST /email-changes/confirm")).toContain(410);
    expect((await owner.get("/me")).status).toBe(200);
  });
});
