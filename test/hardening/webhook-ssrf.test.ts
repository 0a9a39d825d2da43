import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointUrlProblem, type UrlPolicy } from "../../server/src/webhooks/endpoint-url.js";
import { type Resolve, type SendRequest, safeSender } from "../../server/src/webhooks/safe-send.js";
import {
  type Receiver,
  receiver,
  selfSignedCertificate,
  type Tripwire,
  tripwire,
} from "../support/webhook-receivers.js";

/**
 * No server-side request forgery through webhooks (README, "Webhooks" → "SSRF protection";
 * admin spec, `WebhookUrl` and `WebhookAttempt.error`): hostile URLs are refused when an
 * endpoint is saved (`endpointUrlProblem`), and before every delivery the name is resolved, every
 * address checked, and the connection made to those addresses only (`safeSender`) — so a name
 * that points somewhere private by the time it is sent (DNS rebinding) reaches nothing.
 *
 * Saving through the admin API (400 for these URLs) is wired by the admin routes, which call
 * endpointUrlProblem through endpoints-store.ts; this file proves the rules themselves.
 */

const PROD: UrlPolicy = { allowHttpLoopback: false };
const DEV: UrlPolicy = { allowHttpLoopback: true };

// [URL, what the refusal says, still refused with the development setting on]
const HOSTILE: readonly (readonly [string, RegExp, boolean])[] = [
  // Schemes other than https
  ["http://hooks.example.com/x", /https:\/\//, true],
  ["file:///etc/passwd", /https:\/\//, true],
  ["gopher://127.0.0.1:6379/_FLUSHALL", /https:\/\//, true],
  ["ftp://hooks.example.com/", /https:\/\//, true],
  ["javascript:alert(1)", /https:\/\//, true],
  ["data:text/plain,hello", /https:\/\//, true],
  ["ws://hooks.example.com/", /https:\/\//, true],
  ["//hooks.example.com/", /not a valid absolute URL/, true],
  // Loopback in every notation the WHATWG parser accepts (all become 127.0.0.1)
  ["https://127.0.0.1/", /127\.0\.0\.1 is a loopback address/, false],
  ["https://2130706433/", /127\.0\.0\.1 is a loopback address/, false],
  ["https://0x7f000001/", /127\.0\.0\.1 is a loopback address/, false],
  ["https://0x7f.1/", /127\.0\.0\.1 is a loopback address/, false],
  ["https://0177.0.0.1/", /127\.0\.0\.1 is a loopback address/, false],
  ["https://127.1/", /127\.0\.0\.1 is a loopback address/, false],
  ["https://127.0.0.1./", /127\.0\.0\.1 is a loopback address/, false],
  ["https://%31%32%37.0.0.1/", /127\.0\.0\.1 is a loopback address/, false],
  ["https://127\u30020\u30020\u30021/", /127\.0\.0\.1 is a loopback address/, false],
  ["https://127.255.255.254/", /127\.255\.255\.254 is a loopback address/, false],
  ["https://localhost/", /localhost is a loopback name/, false],
  ["https://LOCALHOST./", /localhost is a loopback name/, false],
  ["https://admin.localhost/", /admin\.localhost is a loopback name/, false],
  ["http://0/", /https:\/\//, true],
  ["https://0/", /0\.0\.0\.0 is a reserved/, true],
  // IPv6 literals
  ["https://[::1]/", /::1 is a loopback address/, false],
  ["https://[0:0:0:0:0:0:0:1]/", /::1 is a loopback address/, false],
  ["https://[::]/", /:: is a reserved/, true],
  ["https://[::ffff:127.0.0.1]/", /is 127\.0\.0\.1, a loopback address/, false],
  ["https://[::ffff:7f00:1]/", /is 127\.0\.0\.1, a loopback address/, false],
  ["https://[::ffff:a9fe:a9fe]/", /169\.254\.169\.254, a cloud metadata address/, true],
  ["https://[::ffff:0:7f00:1]/", /reserved/, true], // IPv4-translated
  ["https://[::127.0.0.1]/", /reserved/, true], // IPv4-compatible (deprecated)
  ["https://[fe80::1]/", /fe80::1 is a link-local address/, true],
  ["https://[fd00::1]/", /fd00::1 is a private address/, true],
  ["https://[fc00::7]/", /is a private address/, true],
  ["https://[fec0::1]/", /is a private address/, true],
  ["https://[ff02::1]/", /is a multicast address/, true],
  ["https://[64:ff9b::a9fe:a9fe]/", /169\.254\.169\.254, a cloud metadata address/, true],
  ["https://[64:ff9b::10.0.0.1]/", /10\.0\.0\.1, a private address/, true],
  ["https://[64:ff9b:1::1]/", /reserved/, true],
  ["https://[2002:a00:1::1]/", /10\.0\.0\.1, a private address/, true], // 6to4
  // 6to4 and NAT64 forms of 127/8 are routed off the host: refused even with the dev setting.
  ["https://[2002:7f00:1::]/", /127\.0\.0\.1, a loopback address/, true],
  ["https://[64:ff9b::7f00:1]/", /127\.0\.0\.1, a loopback address/, true],
  ["https://[2001:db8::1]/", /reserved/, true],
  ["https://[2001::1]/", /reserved/, true], // Teredo
  ["https://[100::1]/", /reserved/, true],
  ["https://[fd00:ec2::254]/", /cloud metadata address/, true],
  // Private, link-local, metadata and special-purpose IPv4
  ["https://10.0.0.5/", /10\.0\.0\.5 is a private address/, true],
  ["https://172.16.0.1/", /is a private address/, true],
  ["https://172.31.255.255/", /is a private address/, true],
  ["https://192.168.1.1/", /is a private address/, true],
  ["https://100.64.0.1/", /is a private address/, true],
  ["https://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a cloud metadata/, true],
  ["https://2852039166/", /169\.254\.169\.254 is a cloud metadata/, true],
  ["https://0xa9.0xfe.0xa9.0xfe/", /169\.254\.169\.254 is a cloud metadata/, true],
  ["https://100.100.100.200/", /100\.100\.100\.200 is a cloud metadata/, true],
  ["https://169.254.1.1/", /is a link-local address/, true],
  ["https://224.0.0.1/", /is a multicast address/, true],
  ["https://255.255.255.255/", /reserved/, true],
  ["https://240.0.0.1/", /reserved/, true],
  ["https://192.0.0.170/", /reserved/, true],
  ["https://192.0.2.1/", /reserved/, true],
  ["https://192.88.99.1/", /reserved/, true],
  ["https://198.18.0.1/", /reserved/, true],
  ["https://198.51.100.1/", /reserved/, true],
  ["https://203.0.113.1/", /reserved/, true],
  // Names that only resolve inside the operator's network
  ["https://metadata.google.internal/computeMetadata/v1/", /private name \(\.internal\)/, true],
  ["https://metadata/", /single-label name/, true],
  ["https://instance-data/", /single-label name/, true],
  ["https://intranet/", /single-label name/, true],
  ["https://printer.local/", /private name \(\.local\)/, true],
  ["https://router.home.arpa/", /private name \(\.arpa\)/, true],
  ["https://1.0.0.127.in-addr.arpa/", /private name \(\.arpa\)/, true],
  // User info and parser confusion
  ["https://evil.com@127.0.0.1/", /user name or password/, true],
  ["https://user:pass@hooks.example.com/", /user name or password/, true],
  ["https://hooks.example.com\\@127.0.0.1/", /backslashes/, true],
  ["https://evil.com\\.127.0.0.1/", /backslashes/, true],
  ["https://127.0.0.1#@evil.com", /loopback address|#fragment/, true],
  ["https://hooks.example.com/#frag", /#fragment/, true],
  [" https://hooks.example.com/", /spaces/, true],
  ["https://hooks.example.com/\t", /spaces/, true],
  ["https://hooks.exa\nmple.com/", /spaces/, true],
  ["https://hooks.example.com /x", /spaces/, true],
  // Ports browsers refuse (Fetch Standard "bad ports")
  ["https://hooks.example.com:25/", /port 25/, true],
  ["https://hooks.example.com:22/", /port 22/, true],
  ["https://hooks.example.com:6667/", /port 6667/, true],
  ["https://hooks.example.com:0/", /port 0/, true],
  ["https://hooks.example.com:65536/", /not a valid absolute URL/, true],
];

describe("security: hostile URLs are refused when an endpoint is saved", () => {
  it("the catalogue holds at least 40 URLs", () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(HOSTILE)("%s is refused (%s)", (url, reason, refusedInDev) => {
    expect(endpointUrlProblem(url, PROD)).toMatch(reason);
    if (refusedInDev) expect(endpointUrlProblem(url, DEV)).not.toBeNull();
    else expect(endpointUrlProblem(url, DEV)).toBeNull();
  });
});

describe("happy: public https URLs, and loopback ones only with the development setting", () => {
  it.each([
    "https://hooks.example.com/pressroom",
    "https://hooks.example.com:8443/a/b?c=d",
    "HTTPS://Hooks.Example.COM/x",
    "https://8.8.8.8/hook",
    "https://[2606:4700:4700::1111]/hook",
    "https://[2002:808:808::1]/", // 6to4 of a public address
    "https://[64:ff9b::808:808]/", // NAT64 of a public address
    "https://xn--bcher-kva.example/",
  ])("%s is accepted", (url) => {
    expect(endpointUrlProblem(url, PROD)).toBeNull();
    expect(endpointUrlProblem(url, DEV)).toBeNull();
  });

  it.each([
    "http://localhost:3000/hook",
    "http://127.0.0.1:3000/hook",
    "http://[::1]:3000/hook",
    "https://localhost/hook",
  ])("%s is accepted only with WEBHOOK_ALLOW_HTTP_LOOPBACK", (url) => {
    expect(endpointUrlProblem(url, DEV)).toBeNull();
    expect(endpointUrlProblem(url, PROD)).not.toBeNull();
  });
});

// ---- Send time ----

// The admin spec's patterns: WebhookAttempt.error and .responseExcerpt.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
const spec = /^[^\u0000-\u001f\u007f]{1,500}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
const excerptSpec = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

function request(url: string, timeoutMs = 5000): SendRequest {
  return {
    url,
    headers: { "webhook-id": "evt_1", "webhook-timestamp": "1", "webhook-signature": "v1,x" },
    body: '{"id":"evt_1"}',
    timeoutMs,
  };
}

/** A resolver that answers `addresses` for every name, counting its calls. */
function resolvingTo(...addresses: string[]): Resolve & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

let wire: Tripwire;
beforeAll(async () => {
  wire = await tripwire("127.0.0.1");
});
afterAll(async () => {
  await wire.close();
});

describe("security: a name that resolves to a refused address at send time reaches nothing (DNS rebinding)", () => {
  it.each([
    ["127.0.0.1", /127\.0\.0\.1 is a loopback address/],
    ["169.254.169.254", /169\.254\.169\.254 is a cloud metadata address/],
    ["::1", /::1 is a loopback address/],
    ["10.1.2.3", /10\.1\.2\.3 is a private address/],
    ["::ffff:127.0.0.1", /127\.0\.0\.1, a loopback address/],
    ["fd00:ec2::254", /cloud metadata address/],
    ["0.0.0.0", /0\.0\.0\.0 is a reserved/],
    ["fe80::1%eth0", /not an IP address/],
    ["64:ff9b::a9fe:a9fe", /169\.254\.169\.254, a cloud metadata address/],
  ])("a public-looking name resolving to %s is refused, nothing connects", async (address, why) => {
    const url = `https://hooks.rebind.example.com:${wire.port}/hook`;
    expect(endpointUrlProblem(url, PROD)).toBeNull(); // fine when saved…
    for (const policy of [PROD, DEV]) {
      const resolve = resolvingTo(address);
      const outcome = await safeSender(policy, { resolve })(request(url)); // …private when sent
      expect(outcome.ok).toBe(false);
      expect(outcome.statusCode).toBeNull();
      expect(outcome.error).toMatch(/^refused: hooks\.rebind\.example\.com resolves to /);
      expect(outcome.error).toMatch(why);
      expect(outcome.error).toMatch(spec);
      expect(resolve.calls).toEqual(["hooks.rebind.example.com"]);
    }
    expect(wire.connections()).toBe(0);
  });

  it("one refused address among public ones refuses the attempt", async () => {
    const url = `https://hooks.rebind.example.com:${wire.port}/hook`;
    const resolve = resolvingTo(
      "93.184.215.14",
      "127.0.0.1",
      "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
    );
    const outcome = await safeSender(PROD, { resolve })(request(url));
    expect(outcome.error).toMatch(/^refused: .* 127\.0\.0\.1 is a loopback address$/);
    expect(wire.connections()).toBe(0);
  });

  it("an http URL saved under the development setting is refused once it is off", async () => {
    const outcome = await safeSender(PROD)(request(`http://127.0.0.1:${wire.port}/hook`));
    expect(outcome).toMatchObject({ ok: false, statusCode: null, latencyMs: null });
    expect(outcome.error).toMatch(/^refused: The webhook URL must start with https:\/\//);
    expect(wire.connections()).toBe(0);
  });
});

describe("error: names that do not resolve", () => {
  it("no address, or an unknown name, is a DNS message and no connection", async () => {
    const url = `https://hooks.gone.example.com:${wire.port}/hook`;
    const none = await safeSender(PROD, { resolve: async () => [] })(request(url));
    expect(none).toMatchObject({
      ok: false,
      statusCode: null,
      error: "DNS: no address for this name",
    });
    const unknown: Resolve = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND hooks.gone.example.com"), {
        code: "ENOTFOUND",
      });
    };
    const missing = await safeSender(PROD, { resolve: unknown })(request(url));
    expect(missing).toMatchObject({ ok: false, statusCode: null, error: "DNS: name not found" });
    expect(wire.connections()).toBe(0);
  });
});

describe("happy: the connection goes to the address that was checked, resolved once", () => {
  let target: Receiver;
  beforeAll(async () => {
    // 127.0.0.3: where the system resolver would never send "localhost".
    target = await receiver((_req, res) => res.end("thanks"), { host: "127.0.0.3" });
  });
  afterAll(async () => {
    await target.close();
  });

  it("a name is resolved once and the request reaches the checked address, Host from the URL", async () => {
    const resolve = resolvingTo("127.0.0.3");
    const outcome = await safeSender(DEV, { resolve })(
      request(`http://localhost:${target.port}/hook?x=1`),
    );
    expect(outcome).toMatchObject({
      ok: true,
      statusCode: 200,
      responseExcerpt: "thanks",
      error: null,
    });
    expect(resolve.calls).toEqual(["localhost"]);
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]).toMatchObject({
      method: "POST",
      url: "/hook?x=1",
      body: '{"id":"evt_1"}',
      headers: {
        host: `localhost:${target.port}`,
        "content-type": "application/json",
        "webhook-id": "evt_1",
      },
    });
  });

  // Node itself reads proxies only with NODE_USE_ENV_PROXY at start-up, for its global agent; the
  // sender uses an agent of its own. This guards against a later change that honours them.
  it("proxy variables in the environment do not divert the request", async () => {
    const saved = { http: process.env.HTTP_PROXY, https: process.env.HTTPS_PROXY };
    process.env.HTTP_PROXY = `http://127.0.0.1:${wire.port}`;
    process.env.HTTPS_PROXY = `http://127.0.0.1:${wire.port}`;
    try {
      const outcome = await safeSender(DEV, { resolve: resolvingTo("127.0.0.3") })(
        request(`http://localhost:${target.port}/hook`),
      );
      expect(outcome.ok).toBe(true);
    } finally {
      if (saved.http === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved.http;
      if (saved.https === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved.https;
    }
    expect(wire.connections()).toBe(0);
  });
});

describe("security: redirects are never followed", () => {
  it.each([
    ["http://169.254.169.254/latest/meta-data/", 302],
    ["internal", 307],
    ["internal", 308],
    ["internal", 301],
  ])("a %s redirect (%i) is an outcome, not a request", async (where, status) => {
    const inner = await receiver((_req, res) => res.end("internal"));
    const location = where === "internal" ? `http://127.0.0.1:${inner.port}/admin` : where;
    const outer = await receiver((_req, res) => {
      res.writeHead(status, { location });
      res.end("moved");
    });
    try {
      const outcome = await safeSender(DEV)(request(`http://127.0.0.1:${outer.port}/hook`));
      expect(outcome).toMatchObject({ ok: false, statusCode: status, responseExcerpt: "moved" });
      const origin = new URL(location).origin; // the path (it may carry a token) is not kept
      expect(outcome.error).toBe(`redirect not followed (to ${origin})`);
      expect(outer.requests).toHaveLength(1);
      expect(inner.requests).toHaveLength(0);
    } finally {
      await inner.close();
      await outer.close();
    }
  });
});

describe("security: what the receiver answers is bounded", () => {
  it("a status outside 100-599 (Node's parser takes any three digits) is a failed attempt with no status, as the delivery log's schema allows", async () => {
    for (const status of [999, 600, "099"]) {
      const server = createTcpServer((socket) => {
        socket.once("data", () => {
          socket.end(`HTTP/1.1 ${status} Odd\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok`);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const outcome = await safeSender(DEV)(request(`http://127.0.0.1:${port}/hook`));
        expect(outcome).toMatchObject({ ok: false, statusCode: null, responseExcerpt: null });
        expect(outcome.error).toBe(`invalid HTTP status ${Number(status)}`);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

  it("a 10 MB body is not read past 64 KiB; the excerpt is its first KiB", async () => {
    let bodyWritten: boolean | undefined;
    const big = await receiver((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "a");
      let left = 160; // 160 × 64 KiB = 10 MiB
      const pump = () => {
        while (left > 0) {
          left--;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => {
        bodyWritten = res.writableFinished;
      });
      pump();
    });
    try {
      const outcome = await safeSender(DEV)(request(`http://127.0.0.1:${big.port}/`, 20_000));
      expect(outcome).toMatchObject({ ok: true, statusCode: 200, error: null });
      expect(outcome.responseExcerpt).toBe("a".repeat(1024));
      await expect.poll(() => bodyWritten, { timeout: 10_000 }).toBe(false);
    } finally {
      await big.close();
    }
  });

  it("control characters and invalid UTF-8 in the excerpt are replaced; the excerpt keeps tab and line breaks", async () => {
    const nasty = Buffer.concat([
      Buffer.from("ok\t\r\n\u001b[31mred\u0000\u007f\u0085"),
      Buffer.from([0xff, 0xfe]),
      Buffer.from("é".repeat(600)), // 1200 bytes: the KiB ends inside "é"
    ]);
    const r = await receiver((_req, res) => res.end(nasty));
    try {
      const outcome = await safeSender(DEV)(request(`http://127.0.0.1:${r.port}/`));
      const excerpt = outcome.responseExcerpt ?? "";
      expect(excerpt).toMatch(excerptSpec);
      expect(excerpt.startsWith("ok\t\r\n\uFFFD[31mred\uFFFD\uFFFD\uFFFD\uFFFD\uFFFDéé")).toBe(
        true,
      );
      expect(excerpt.length).toBeLessThanOrEqual(1024);
      expect(excerpt.endsWith("é")).toBe(true); // the cut character is dropped, not U+FFFD
    } finally {
      await r.close();
    }
  });

  it("a receiver that never answers times out after timeoutMs", async () => {
    const silent = await receiver(() => {});
    try {
      const outcome = await safeSender(DEV)(request(`http://127.0.0.1:${silent.port}/`, 1000));
      expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "timed out after 1 s" });
    } finally {
      await silent.close();
    }
  });

  it("a receiver that sends headers and then stalls the body times out too", async () => {
    const stall = await receiver((_req, res) => {
      res.writeHead(200);
      res.write("partial");
    });
    try {
      const outcome = await safeSender(DEV)(request(`http://127.0.0.1:${stall.port}/`, 1000));
      expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "timed out after 1 s" });
    } finally {
      await stall.close();
    }
  });

  it("a DNS lookup that never ends times out too", async () => {
    const hang: Resolve = () => new Promise(() => {});
    const outcome = await safeSender(PROD, { resolve: hang })(
      request("https://hooks.slow.example.com/", 1000),
    );
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "timed out after 1 s" });
  });
});

describe("error: failures are short messages for the owner, never stack traces", () => {
  it("a closed port is 'connection refused'", async () => {
    const closed = await tripwire();
    await closed.close();
    const outcome = await safeSender(DEV)(request(`http://127.0.0.1:${closed.port}/`));
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: "connection refused" });
  });

  it("TLS: a certificate for the URL's name verifies through the pinned address (SNI from the URL); self-signed and wrong-name certificates are named", async () => {
    const tls = await selfSignedCertificate("localhost");
    const secure = await receiver((_req, res) => res.end("secure"), { tls });
    try {
      const url = `https://localhost:${secure.port}/hook`;
      const resolve = resolvingTo("127.0.0.1");
      const trusted = await safeSender(DEV, { resolve, ca: tls.cert })(request(url));
      expect(trusted).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: "secure" });

      const untrusted = await safeSender(DEV, { resolve })(request(url));
      expect(untrusted).toMatchObject({ ok: false, error: "TLS: self-signed certificate" });

      // Trusted certificate, but for "localhost": an IP URL does not match it.
      const wrongName = await safeSender(DEV, { ca: tls.cert })(
        request(`https://127.0.0.1:${secure.port}/hook`),
      );
      expect(wrongName).toMatchObject({
        ok: false,
        error: "TLS: certificate is not for this host name",
      });
      expect(secure.requests).toHaveLength(1);
    } finally {
      await secure.close();
    }
  });
});
