// The Go toolchain fetch behind "npm start without Go" (server/src/platform/embedded-db/go-toolchain.ts), against
// a local HTTP server acting as GOPROXY that serves a small fake toolchain zip: the download, the
// h1: check (a tampered zip is refused and leaves nothing behind), the unpacking as Go does it,
// the per-user cache, GOPROXY's list, and when PATH's go is used. No network.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashZip } from "../../server/src/platform/embedded-db/go-dirhash.js";
import {
  atLeast,
  fetchToolchain,
  findGo,
  goProxies,
  goVersionOf,
  type ToolchainPin,
} from "../../server/src/platform/embedded-db/go-toolchain.js";

const VERSION = "go1.99.0";
const PLATFORM = "linux-amd64";
const PREFIX = `golang.org/toolchain@v0.0.1-${VERSION}.${PLATFORM}/`;
const ZIP_PATH = `/golang.org/toolchain/@v/v0.0.1-${VERSION}.${PLATFORM}.zip`;

/** A fake toolchain: bin/go prints its version; the rest checks how the zip is unpacked. */
const FILES: Record<string, string> = {
  "bin/go": `#!/bin/sh\necho "go version ${VERSION} linux/amd64"\n`,
  "pkg/tool/linux_amd64/compile": "#!/bin/sh\n",
  "lib/wasm/go_js_wasm_exec": "#!/bin/sh\n",
  "lib/time/zoneinfo.zip": "not a tool",
  "src/_go.mod": "module std\n",
  "src/crypto/x/_asm/_go.mod": "module asm\n",
  VERSION: `${VERSION}\n`,
};

const zipOf = (files: Record<string, string>) =>
  zipSync(
    Object.fromEntries(
      Object.entries(files).map(([name, text]) => [PREFIX + name, new TextEncoder().encode(text)]),
    ),
  );

/** h1: as dirhash.Hash1 defines it, computed here from the files rather than from the zip. */
function h1Of(files: Record<string, string>): string {
  const sha = (text: string) => createHash("sha256").update(text).digest("hex");
  const names = Object.keys(files).map((name) => PREFIX + name);
  names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const lines = names.map((n) => `${sha(files[n.slice(PREFIX.length)] ?? "")}  ${n}\n`).join("");
  return `h1:${createHash("sha256").update(lines).digest("base64")}`;
}

const GOOD = zipOf(FILES);
const TAMPERED = zipOf({ ...FILES, "bin/go": FILES["bin/go"]?.replace("echo", "echo;") ?? "" });
const PIN: ToolchainPin = { version: VERSION, h1: { [PLATFORM]: h1Of(FILES) } };

/** A GOPROXY: `/good`, `/slow`, `/tampered`, `/missing` (404) and `/broken` (500) prefixes. */
let server: Server;
let proxy = "";
const requests: string[] = [];
let root = "";

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "pressroom-go-toolchain-"));
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const [, kind, rest] = /^\/(\w+)(\/.*)$/.exec(req.url ?? "") ?? [];
    const body = rest === ZIP_PATH ? { good: GOOD, tampered: TAMPERED }[kind ?? ""] : undefined;
    if (kind === "broken") res.writeHead(500).end();
    else if (kind === "slow" && rest === ZIP_PATH) {
      // Half now, half 3.2 s later: one "… of … downloaded" progress line in between.
      res.writeHead(200, { "content-length": GOOD.length }).write(GOOD.subarray(0, 100));
      setTimeout(() => res.end(GOOD.subarray(100)), 3200);
    } else if (!body) res.writeHead(404).end();
    else res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
  await rm(root, { recursive: true, force: true });
});

let n = 0;
/** fetchToolchain's options with a cache directory of its own. */
async function options(GOPROXY: string) {
  const cacheDir = path.join(root, `cache-${++n}`);
  const lines: string[] = [];
  const onProgress = (line: string) => lines.push(line);
  return { env: { GOPROXY }, pin: PIN, platform: PLATFORM, cacheDir, onProgress, lines };
}

const goVersion = (go: string, env: NodeJS.ProcessEnv = {}) =>
  new Promise<string>((resolve, reject) =>
    execFile(go, ["version"], { env }, (err, out) => (err ? reject(err) : resolve(out.trim()))),
  );

describe("fetching the Go toolchain from GOPROXY", () => {
  it("downloads it (falling through a proxy that lacks it), checks its h1, unpacks it as Go does, and reuses the cache", async () => {
    const o = await options(`${proxy}/missing,${proxy}/good/`);
    requests.length = 0;
    const goroot = await fetchToolchain(o);
    expect(goroot).toBe(path.join(o.cacheDir, `${VERSION}.${PLATFORM}`));
    expect(requests).toEqual([`/missing${ZIP_PATH}`, `/good${ZIP_PATH}`]);
    expect(o.lines.join("\n")).toMatch(/downloaded 0\.0 MB in \d+ s/);
    expect(o.lines.join("\n")).toContain(`checksum ${PIN.h1[PLATFORM]} verified`);

    expect(await goVersion(path.join(goroot, "bin/go"))).toBe(`go version ${VERSION} linux/amd64`);
    const mode = async (name: string) => (await stat(path.join(goroot, name))).mode & 0o777;
    expect(await mode("bin/go")).toBe(0o755 & ~process.umask());
    expect(await mode("pkg/tool/linux_amd64/compile")).toBe(0o755 & ~process.umask());
    expect(await mode("lib/wasm/go_js_wasm_exec")).toBe(0o755 & ~process.umask());
    expect(await mode("lib/time/zoneinfo.zip")).toBe(0o644 & ~process.umask());
    expect(await readFile(path.join(goroot, "src/go.mod"), "utf8")).toBe("module std\n");
    expect(await readFile(path.join(goroot, "src/crypto/x/_asm/go.mod"), "utf8")).toBe(
      "module asm\n",
    );
    // Nothing else beside it: no temporary zip or directory, no lock.
    expect(await readdir(o.cacheDir)).toEqual([`${VERSION}.${PLATFORM}`]);

    requests.length = 0;
    expect(await fetchToolchain(o)).toBe(goroot);
    expect(requests).toEqual([]);
  });

  it("reports the bytes downloaded every 3 s", async () => {
    const o = await options(`${proxy}/slow`);
    await fetchToolchain(o);
    const total = (GOOD.length / 1e6).toFixed(1);
    expect(o.lines).toContainEqual(`  … 0.0 MB of ${total} MB downloaded`);
    expect(o.lines.at(-2)).toMatch(new RegExp(`^ {2}downloaded ${total} MB in [34] s$`));
  });

  it("refuses a zip whose h1 is not the pinned one, and keeps nothing of it", async () => {
    const o = await options(`${proxy}/tampered`);
    // Hashed before the fetch starts: an `await` inside toThrow's argument would leave the
    // fetch's rejection without a handler meanwhile (an unhandled rejection when it is quicker).
    const tampered = await hashZipOf(TAMPERED);
    await expect(fetchToolchain(o)).rejects.toThrow(
      `has hash ${tampered}, go-toolchain.json pins ${PIN.h1[PLATFORM]}`,
    );
    expect(await readdir(o.cacheDir)).toEqual([]);
  });

  it("reads GOPROXY's list as Go does: ',' falls through on 404 only, '|' on any error, 'off' stops", async () => {
    requests.length = 0;
    await expect(fetchToolchain(await options(`${proxy}/broken,${proxy}/good`))).rejects.toThrow(
      "failed: 500",
    );
    expect(requests).toEqual([`/broken${ZIP_PATH}`]);
    await expect(fetchToolchain(await options(`${proxy}/broken|${proxy}/good`))).resolves.toEqual(
      expect.any(String),
    );
    requests.length = 0;
    await expect(fetchToolchain(await options(`off,${proxy}/good`))).rejects.toThrow(
      "no proxy to fetch from in GOPROXY=off,",
    );
    await expect(
      fetchToolchain(await options(`${proxy}/missing,off,${proxy}/good`)),
    ).rejects.toThrow("failed: 404");
    expect(requests).toEqual([`/missing${ZIP_PATH}`]);

    expect(goProxies({})).toEqual([{ url: "https://proxy.golang.org", onAnyError: false }]);
    expect(goProxies({ GOPROXY: "direct" })).toEqual([]);
    expect(goProxies({ GOPROXY: "https://a.example/x/,direct|https://b.example" })).toEqual([
      { url: "https://a.example/x", onAnyError: false },
      { url: "https://b.example", onAnyError: false },
    ]);
  });

  it("has no pin for a platform it was not given, and says so", async () => {
    const o = await options(`${proxy}/good`);
    await expect(fetchToolchain({ ...o, platform: "windows-386" })).rejects.toThrow(
      "pins no toolchain for windows-386",
    );
  });

  it("downloads once when two fetches race for the same cache", async () => {
    const o = await options(`${proxy}/good`);
    requests.length = 0;
    const [a, b] = await Promise.all([fetchToolchain(o), fetchToolchain(o)]);
    expect(a).toBe(b);
    expect(requests).toEqual([`/good${ZIP_PATH}`]);
    expect(o.lines.join("\n")).toContain("another process is fetching");
  });
});

describe("which Go builds the embedded database", () => {
  /** A PATH holding only a `go` that prints `version` (none if undefined). */
  async function pathWithGo(version: string | undefined): Promise<string> {
    const dir = path.join(root, `path-${++n}`);
    await mkdir(dir, { recursive: true });
    if (version) {
      await writeFile(
        path.join(dir, "go"),
        `#!/bin/sh\necho "go version ${version} linux/amd64"\n`,
      );
      await chmod(path.join(dir, "go"), 0o755);
    }
    return dir;
  }

  it("uses PATH's go when it is at least go.mod's version", async () => {
    const o = await options(`${proxy}/good`);
    const PATH = await pathWithGo("go1.24.0");
    const go = await findGo({ ...o, env: { ...o.env, PATH }, minimum: "1.24" });
    expect(go).toEqual({ go: "go", env: { GOPROXY: o.env.GOPROXY, PATH }, version: "go1.24.0" });
    expect(existsSync(o.cacheDir)).toBe(false);
  });

  it.each([
    ["no go on PATH", undefined, "`go` is not on PATH"],
    [
      "a go older than go.mod's",
      "go1.22.5",
      "`go` on PATH is go1.22.5, older than the go 1.24 that go.mod needs",
    ],
  ])("fetches the pinned toolchain when there is %s", async (_, version, why) => {
    const o = await options(`${proxy}/good`);
    const PATH = await pathWithGo(version);
    const go = await findGo({ ...o, env: { ...o.env, PATH }, minimum: "1.24" });
    const goroot = path.join(o.cacheDir, `${VERSION}.${PLATFORM}`);
    expect(go.go).toBe(path.join(goroot, "bin/go"));
    expect(go.version).toBe(VERSION);
    expect(go.env).toMatchObject({ GOROOT: goroot, PATH: `${goroot}/bin:${PATH}` });
    expect(await goVersion("go", go.env)).toBe(`go version ${VERSION} linux/amd64`);
    expect(o.lines[0]).toContain(`${why}: using the official Go toolchain ${VERSION}`);
  });

  it("says what to do when the fetch fails", async () => {
    const o = await options("off");
    const PATH = await pathWithGo(undefined);
    await expect(findGo({ ...o, env: { GOPROXY: "off", PATH }, minimum: "1.24" })).rejects.toThrow(
      /Go 1\.24 or newer is needed .*`go` is not on PATH, and fetching go1\.99\.0 failed: .*Install Go \(https:\/\/go\.dev\/dl\/\), or set MONGODB_URI/,
    );
  });

  it("compares Go versions as Go numbers them", () => {
    expect(goVersionOf("go version go1.26.8 linux/amd64")).toBe("1.26.8");
    expect(goVersionOf("go version devel go1.27-abcdef Tue …")).toBe("1.27");
    expect(goVersionOf("go1.24")).toBe("1.24");
    expect(goVersionOf("no version")).toBeUndefined();
    expect(atLeast("1.24", "1.24")).toBe(true);
    expect(atLeast("1.24.0", "1.24")).toBe(true);
    expect(atLeast("1.23.12", "1.24")).toBe(false);
    expect(atLeast("1.100.0", "1.24")).toBe(true);
    expect(atLeast("2.0", "1.24")).toBe(true);
  });

  it("pins a toolchain, for each supported platform, that is new enough for go.mod", async () => {
    const dir = new URL("../../server/embedded-db/", import.meta.url);
    const pin = JSON.parse(await readFile(new URL("go-toolchain.json", dir), "utf8"));
    const goMod = await readFile(new URL("go.mod", dir), "utf8");
    const minimum = /^go (\S+)$/m.exec(goMod)?.[1] ?? "";
    expect(atLeast(goVersionOf(pin.version) ?? "", minimum)).toBe(true);
    expect(Object.keys(pin.h1).sort()).toEqual([
      "darwin-amd64",
      "darwin-arm64",
      "linux-amd64",
      "linux-arm64",
    ]);
    for (const h1 of Object.values(pin.h1)) expect(h1).toMatch(/^h1:[A-Za-z0-9+/]{43}=$/);
  });
});

async function hashZipOf(bytes: Uint8Array): Promise<string> {
  const file = path.join(root, `zip-${++n}.zip`);
  await writeFile(file, bytes);
  return hashZip(file);
}

describe("the h1: hash", () => {
  /** The Go module cache, where `npm run build:db` left the embedded database's modules. */
  const modCache =
    process.env.GOMODCACHE ||
    path.join(
      process.env.GOPATH?.split(path.delimiter)[0] || path.join(homedir(), "go"),
      "pkg/mod",
    );
  /** A module path as the cache spells it: each capital as "!" and its lower case. */
  const escapePath = (p: string) => p.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

  it("of a zip is Go's: the go.sum hashes of the module zips in the Go module cache", async ({
    skip,
  }) => {
    const goSum = await readFile(
      new URL("../../server/embedded-db/go.sum", import.meta.url),
      "utf8",
    );
    const checked: string[] = [];
    for (const [, mod, version, sum] of goSum.matchAll(/^(\S+) (v\S+) (h1:\S+)$/gm)) {
      const zip = path.join(
        modCache,
        "cache/download",
        escapePath(mod ?? ""),
        "@v",
        `${version}.zip`,
      );
      if (!existsSync(zip) || checked.length >= 12) continue;
      expect(`${mod}@${version} ${await hashZip(zip)}`).toBe(`${mod}@${version} ${sum}`);
      checked.push(`${mod}@${version}`);
    }
    if (checked.length === 0) skip(`no module zip of go.sum in ${modCache}: run npm run build:db`);
    expect(checked).toContain("github.com/FerretDB/FerretDB@v1.24.2");
  });

  it("of the fake toolchain is the one computed from its files", async () => {
    expect(await hashZipOf(GOOD)).toBe(PIN.h1[PLATFORM]);
    expect(await hashZipOf(TAMPERED)).not.toBe(PIN.h1[PLATFORM]);
  });
});
