/**
 * The answer cache's bounds (README, "Production": answer cache; server/src/platform/http/
 * answer-cache.ts): a workspace's answers within its own budget, all of them within the whole,
 * the least recently asked going first; an answer is sent again only under the ETag it was kept
 * with, byte for byte as `res.json` sent it. Through a real Express app on a port.
 */
import { once } from "node:events";
import type { AddressInfo, Server } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AnswerCache,
  type AnswerCacheSettings,
  answerCache,
} from "../../server/src/platform/http/answer-cache.js";

/** A body of about `bytes` bytes of JSON. */
const bodyOf = (bytes: number, mark = "x") => ({ text: mark.repeat(bytes) });

let server: Server | undefined;

afterEach(() => {
  server?.close();
  server = undefined;
});

/**
 * An app answering `GET /:tenant/:key?etag=&size=` from `cache` when it holds that ETag, else
 * with a body of `size` bytes that it keeps; `X-Kept` says which.
 */
async function appWith(settings: AnswerCacheSettings) {
  const cache = answerCache(settings);
  const app = express();
  app.set("etag", false);
  app.get("/:tenant/:key", (req, res) => {
    const { tenant, key } = req.params;
    const etag = `"${String(req.query.etag)}"`;
    res.setHeader("X-Kept", "yes");
    if (cache.sendIfStored(res, tenant, key, etag)) return;
    res.setHeader("X-Kept", "no");
    cache.sendAndStore(
      res,
      tenant,
      key,
      etag,
      bodyOf(Number(req.query.size), String(req.query.mark ?? "x")),
    );
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ask = async (tenant: string, key: string, size = 1000, etag = "v1", mark = "x") => {
    const res = await fetch(`${base}/${tenant}/${key}?etag=${etag}&size=${size}&mark=${mark}`);
    return { kept: res.headers.get("x-kept") === "yes", res, text: await res.text() };
  };
  const held = (c: AnswerCache, tenant: string, keys: string[]) =>
    keys.filter((key) => c.etagOf(tenant, key) !== undefined);
  return { cache, ask, held: (tenant: string, keys: string[]) => held(cache, tenant, keys) };
}

describe("an answer is sent again only as it was sent, under its ETag", () => {
  it("the same bytes, ETag and type as res.json sent, with validation on and off", async () => {
    for (const validated of [false, true]) {
      const { ask } = await appWith({ bytes: 1 << 20, workspaceBytes: 1 << 18, validated });
      const first = await ask("w1", "page", 100, "v1", "é");
      expect(first.kept).toBe(false);
      const again = await ask("w1", "page", 100, "v1", "é");
      expect(again.kept).toBe(true);
      expect(again.text).toBe(first.text);
      expect(JSON.parse(again.text)).toEqual(bodyOf(100, "é"));
      for (const header of ["etag", "content-type", "content-length"]) {
        expect(again.res.headers.get(header)).toBe(first.res.headers.get(header));
      }
      expect(again.res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      server?.close();
    }
  });

  it("another ETag under the same key is read again, and replaces what was kept", async () => {
    const { ask, cache } = await appWith({
      bytes: 1 << 20,
      workspaceBytes: 1 << 18,
      validated: false,
    });
    await ask("w1", "page", 100, "v1", "a");
    const changed = await ask("w1", "page", 100, "v2", "b");
    expect(changed.kept).toBe(false);
    expect(changed.text).toBe(JSON.stringify(bodyOf(100, "b")));
    expect(cache.etagOf("w1", "page")).toBe('"v2"');
    expect((await ask("w1", "page", 100, "v1")).kept).toBe(false);
    // Another workspace's key of the same name is another answer.
    expect((await ask("w2", "page", 100, "v1")).kept).toBe(false);
  });

  it("with no bytes at all nothing is kept, and every answer is still sent", async () => {
    const { ask, cache } = await appWith({ bytes: 0, workspaceBytes: 0, validated: false });
    expect((await ask("w1", "page")).text).toBe(JSON.stringify(bodyOf(1000)));
    expect((await ask("w1", "page")).kept).toBe(false);
    expect(cache.etagOf("w1", "page")).toBeUndefined();
  });
});

describe("no workspace pushes out the others' answers", () => {
  it("a workspace's answers stay within its budget: its own least recently asked go first", async () => {
    // Each answer ~1.3 KB kept: three fit in a workspace's 4 KB, the fourth pushes one out.
    const { ask, held } = await appWith({
      bytes: 64 << 10,
      workspaceBytes: 4 << 10,
      validated: false,
    });
    await ask("other", "o1");
    for (const key of ["k1", "k2", "k3"]) await ask("w1", key);
    expect(held("w1", ["k1", "k2", "k3"])).toEqual(["k1", "k2", "k3"]);
    expect((await ask("w1", "k1")).kept).toBe(true);
    await ask("w1", "k4");
    // k1 was asked again after k2: k2 was the least recently asked.
    expect(held("w1", ["k1", "k2", "k3", "k4"])).toEqual(["k1", "k3", "k4"]);
    for (let i = 5; i < 50; i++) await ask("w1", `k${i}`);
    expect(held("w1", ["k46", "k47", "k48", "k49"])).toEqual(["k47", "k48", "k49"]);
    expect(held("other", ["o1"])).toEqual(["o1"]);
    expect((await ask("other", "o1")).kept).toBe(true);
  });

  it("all answers stay within the whole: the least recently asked of all go first", async () => {
    const { ask, held } = await appWith({
      bytes: 6 << 10,
      workspaceBytes: 4 << 10,
      validated: false,
    });
    await ask("w1", "a");
    await ask("w2", "b");
    await ask("w3", "c");
    await ask("w1", "a");
    await ask("w4", "d");
    await ask("w5", "e");
    // Four fit in 6 KB: b (asked least recently) made room for e; a, asked again, stayed.
    expect(held("w1", ["a"])).toEqual(["a"]);
    expect(held("w2", ["b"])).toEqual([]);
    expect([...held("w3", ["c"]), ...held("w4", ["d"]), ...held("w5", ["e"])]).toEqual([
      "c",
      "d",
      "e",
    ]);
    // The workspace whose answer was pushed out keeps its budget: it can keep as much again.
    for (const key of ["b1", "b2", "b3"]) await ask("w2", key);
    expect(held("w2", ["b1", "b2", "b3"])).toEqual(["b1", "b2", "b3"]);
  });

  it("a workspace whose every answer made room for its next one still counts that one", async () => {
    // Each answer ~2.3 KB kept: one fits in 4 KB, so each new one pushes out the one before.
    const { ask, held } = await appWith({
      bytes: 64 << 10,
      workspaceBytes: 4 << 10,
      validated: false,
    });
    for (const key of ["a", "b", "c", "d"]) await ask("w1", key, 2000);
    expect(held("w1", ["a", "b", "c", "d"])).toEqual(["d"]);
  });

  it("an answer larger than a workspace's budget is sent and not kept", async () => {
    const { ask, held } = await appWith({
      bytes: 64 << 10,
      workspaceBytes: 4 << 10,
      validated: false,
    });
    await ask("w1", "small");
    const large = await ask("w1", "large", 8 << 10);
    expect(large.text).toBe(JSON.stringify(bodyOf(8 << 10)));
    expect(held("w1", ["small", "large"])).toEqual(["small"]);
  });
});
