/**
 * One plain ES module, run unchanged by Node, Bun and Deno (test/sdk/sdk-runtimes.test.ts copies it
 * into a scratch project where `@pressroom/sdk` is installed from the packed tarball):
 *
 *   node smoke.mjs | bun smoke.mjs | deno run --allow-net --allow-env --allow-read smoke.mjs
 *
 * Against a live server (PRESSROOM_BASE_URL, PRESSROOM_API_KEY) it lists one page, walks every
 * page, gets a blog, repeats the list and the get (both answered 304 from the ETag cache), asks
 * for an unknown blog (NotFoundError), and lists through PRESSROOM_FLAKY_URL, a proxy that
 * answers 503 once before passing requests on (a retry). It also verifies a webhook delivery with
 * verifyWebhook (Web Crypto): the Standard Webhooks reference library's signed vector, then the same
 * with its body altered (rejected). It prints one JSON line of what it saw;
 * the test compares it with what the server holds. It never prints the key.
 */
import {
  createClient,
  NotFoundError,
  PressroomError,
  verifyWebhook,
  WebhookVerificationError,
} from "@pressroom/sdk";

const env = (name) => {
  const value = globalThis.process?.env[name] ?? globalThis.Deno?.env.get(name);
  if (value === undefined || value === "") throw new Error(`${name} is not set`);
  return value;
};

const runtime =
  globalThis.Deno !== undefined
    ? `deno ${globalThis.Deno.version.deno}`
    : globalThis.Bun !== undefined
      ? `bun ${globalThis.Bun.version}`
      : `node ${globalThis.process.versions.node}`;

const apiKey = env("PRESSROOM_API_KEY");
const responses = [];
const onResponse = (info) =>
  responses.push({ status: info.status, attempts: info.attempts, notModified: info.notModified });
const client = createClient({ apiKey, baseUrl: env("PRESSROOM_BASE_URL"), onResponse });

// List: one page.
const first = await client.blogs.list({ limit: 2 });
// Auto-pagination: every released blog, page after page.
const all = [];
for await (const blog of client.blogs.listAll({ limit: 2 })) all.push(blog.id);
// Get: one blog.
const one = await client.blogs.get(first.data[0].id);
// ETag reuse: the same list and get again are answered 304 and served from the cache.
const again = await client.blogs.list({ limit: 2 });
const before = responses.length;
const oneAgain = await client.blogs.get(one.id);
const getNotModified = responses[before]?.notModified;

let notFound = null;
try {
  await client.blogs.get("b_doesNotExist0000");
} catch (error) {
  if (error instanceof NotFoundError) notFound = { status: error.status, attempts: error.attempts };
}

// Retry: the proxy answers the first request 503, the SDK waits 250 ms and asks again (jitter 0:
// the exact first wait of the schedule, which the test checks).
const flakyResponses = [];
const flaky = createClient({
  apiKey,
  baseUrl: env("PRESSROOM_FLAKY_URL"),
  retry: { jitter: 0 },
  onResponse: (info) => flakyResponses.push({ status: info.status, attempts: info.attempts }),
});
const started = Date.now();
let retried;
try {
  const page = await flaky.blogs.list({ limit: 1 });
  retried = { ids: page.data.map((b) => b.id), waitedMs: Date.now() - started };
} catch (error) {
  retried = { error: error instanceof PressroomError ? error.message : String(error) };
}

// Webhooks: standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts.
const vector = {
  "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
  "webhook-timestamp": "1614265330",
  "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const whsec = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const at = { now: 1614265330 * 1000 };
const webhook = {
  verified: await verifyWebhook(whsec, vector, '{"test": 2432232314}', at),
  altered: await verifyWebhook(whsec, new Headers(vector), '{"test": 2432232315}', at).then(
    () => "verified",
    (error) => (error instanceof WebhookVerificationError ? error.name : String(error)),
  ),
};

console.log(
  JSON.stringify({
    runtime,
    firstIds: first.data.map((b) => b.id),
    firstNext: typeof first.nextCursor,
    firstNotModified: first.notModified,
    allIds: all,
    got: { id: one.id, title: one.title, sameAgain: oneAgain.id === one.id },
    listNotModified: again.notModified,
    againIds: again.data.map((b) => b.id),
    getNotModified,
    notFound,
    responses,
    retried,
    flakyResponses,
    webhook,
  }),
);
