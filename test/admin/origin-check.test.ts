import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { rawRequest } from "../support/raw-http.js";
import { useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

/**
 * Who may use the admin API (README, "Production"; admin.yaml, the
 * Origin check in its description). Without PUBLIC_URL it answers only on
 * loopback hosts, and a state-changing request needs an Origin equal to the origin the server
 * was reached at (scheme, host and port); with PUBLIC_URL, an Origin equal to PUBLIC_URL's.
 *
 * A DNS-rebinding page is served from the attacker's name (evil.test), which then resolves to
 * the victim's 127.0.0.1: its requests reach the server with `Host: evil.test:PORT` and, when
 * they change state, `Origin: http://evil.test:PORT` — both under the attacker's control.
 */

interface Answer {
  status: number;
  body: unknown;
}

/** A request with the Host and Origin a browser on another page would send (fetch cannot). */
function adminRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: { host?: string; origin?: string },
  body?: unknown,
): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  const json = body === undefined ? undefined : JSON.stringify(body);
  const sent: Record<string, string> = {};
  if (headers.host !== undefined) sent.host = headers.host;
  if (headers.origin !== undefined) sent.origin = headers.origin;
  if (json !== undefined) sent["content-type"] = "application/json";
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname, port: Number(port), method, path: `/api/admin${path}`, headers: sent },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text === "" ? undefined : JSON.parse(text),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(json);
  });
}

let fresh: TestServer;
let port: string;
/** `host:port` and the matching Origin. */
const at = (host: string) => ({ host: `${host}:${port}`, origin: `http://${host}:${port}` });

beforeAll(async () => {
  fresh = await startTestServer((await useTestDb()).db);
  port = new URL(fresh.url).port;
});

const REFUSED_HOST = {
  message:
    "The dashboard answers on loopback addresses only (localhost, 127.0.0.1, [::1]): set PUBLIC_URL to serve it at another address.",
};
const REFUSED_ORIGIN = { message: "Cross-origin request refused." };

describe("happy: without PUBLIC_URL the admin API answers on loopback hosts, to their own origin", () => {
  it("127.0.0.1, another 127.0.0.0/8 address, localhost and [::1] all reach it (a 400 from the validator means the guard let the request through)", async () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "[::1]"]) {
      const status = await adminRequest(fresh.url, "GET", "/setup", at(host));
      expect(status, host).toEqual({ status: 200, body: { needed: true } });
      // An incomplete setup body: the guard passes it on, the spec validator answers 400.
      const post = await adminRequest(fresh.url, "POST", "/setup", at(host), {});
      expect(post.status, host).toBe(400);
    }
  });

  it("a Host on the default port matches an Origin without a port", async () => {
    const res = await adminRequest(
      fresh.url,
      "POST",
      "/setup",
      { host: "localhost", origin: "http://localhost" },
      {},
    );
    expect(res.status).toBe(400);
  });
});

describe("security: DNS rebinding — without PUBLIC_URL a non-loopback Host is refused", () => {
  it("a rebinding page (Host and Origin both evil.test) cannot claim a fresh install through first-run setup", async () => {
    const res = await adminRequest(fresh.url, "POST", "/setup", at("evil.test"), OWNER);
    expect(res).toEqual({ status: 403, body: REFUSED_HOST });
    const status = await adminRequest(fresh.url, "GET", "/setup", at("127.0.0.1"));
    expect(status.body).toEqual({ needed: true });
  });

  it("nor sign in, and it cannot read GET /setup either (every method is refused)", async () => {
    const signIn = await adminRequest(fresh.url, "POST", "/session", at("evil.test"), {
      email: OWNER.email,
      password: OWNER.password,
    });
    expect(signIn).toEqual({ status: 403, body: REFUSED_HOST });
    const read = await adminRequest(fresh.url, "GET", "/setup", at("evil.test"));
    expect(read).toEqual({ status: 403, body: REFUSED_HOST });
  });

  it("names that only look local are not loopback: *.localhost, localhost.evil.test, 127.0.0.1.evil.test, 0.0.0.0, a LAN address", async () => {
    for (const host of [
      "app.localhost",
      "localhost.evil.test",
      "127.0.0.1.evil.test",
      "0.0.0.0",
      "192.168.1.20",
      "[::ffff:c0a8:114]",
    ]) {
      const res = await adminRequest(fresh.url, "GET", "/setup", at(host));
      expect(res, host).toEqual({ status: 403, body: REFUSED_HOST });
    }
  });

  it("a request with no Host at all (HTTP/1.0) is refused", async () => {
    const res = await rawRequest(fresh.url, "GET /api/admin/setup HTTP/1.0\r\n");
    expect(res.status).toBe(403);
  });

  it("the consumer API, health and docs are not affected: they answer at any Host", async () => {
    const { hostname, port: p } = new URL(fresh.url);
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(
          { hostname, port: Number(p), path: "/healthz", headers: { host: "evil.test" } },
          (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          },
        )
        .on("error", reject);
    });
    expect(status).toBe(200);
  });
});

describe("security: the Origin must equal the server's origin in scheme, host and port", () => {
  // A fresh install of its own: a refused request must leave it unclaimed.
  let fresh: TestServer;
  let port: string;
  beforeAll(async () => {
    fresh = await startTestServer((await useTestDb()).db);
    port = new URL(fresh.url).port;
  });

  it("an https:// Origin on a plain HTTP server is refused (the origin includes the scheme)", async () => {
    const res = await adminRequest(
      fresh.url,
      "POST",
      "/setup",
      { host: `127.0.0.1:${port}`, origin: `https://127.0.0.1:${port}` },
      OWNER,
    );
    expect(res).toEqual({ status: 403, body: REFUSED_ORIGIN });
  });

  it("another port, another loopback name, a path, user info, upper case, null or none are refused", async () => {
    const host = `127.0.0.1:${port}`;
    for (const origin of [
      `http://127.0.0.1:${Number(port) + 1}`,
      `http://localhost:${port}`,
      `http://127.0.0.2:${port}`,
      `http://127.0.0.1:${port}/dashboard/`,
      `http://user@127.0.0.1:${port}`,
      `HTTP://127.0.0.1:${port}`,
      "null",
      undefined,
    ]) {
      const res = await adminRequest(fresh.url, "POST", "/setup", { host, origin }, OWNER);
      expect(res, String(origin)).toEqual({ status: 403, body: REFUSED_ORIGIN });
    }
  });

  it("the loopback owner can still set up the install afterwards (nothing above claimed it)", async () => {
    const owner = new AdminClient(fresh.url);
    expect((await owner.post("/setup", OWNER)).status).toBe(201);
  });
});

describe("with PUBLIC_URL: only its origin", () => {
  let proxied: TestServer;
  beforeAll(async () => {
    proxied = await startTestServer((await useTestDb()).db, {
      PUBLIC_URL: "https://press.example.com",
    });
  });

  it("happy: any Host (a proxy may rewrite it) with PUBLIC_URL's origin gets through", async () => {
    for (const host of [
      "press.example.com",
      "10.0.0.7:3000",
      `127.0.0.1:${new URL(proxied.url).port}`,
    ]) {
      const res = await adminRequest(
        proxied.url,
        "POST",
        "/setup",
        { host, origin: "https://press.example.com" },
        {},
      );
      expect(res.status, host).toBe(400);
    }
  });

  it("security: http://, another port, a loopback origin and the request's own Host are refused", async () => {
    for (const origin of [
      "http://press.example.com",
      "https://press.example.com:8443",
      `http://127.0.0.1:${new URL(proxied.url).port}`,
      "https://evil.test",
    ]) {
      const host = origin === "https://evil.test" ? "evil.test" : "press.example.com";
      const res = await adminRequest(proxied.url, "POST", "/setup", { host, origin }, OWNER);
      expect(res, origin).toEqual({ status: 403, body: REFUSED_ORIGIN });
    }
  });
});
