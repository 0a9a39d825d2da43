/**
 * `npm run bench:media` (`npx tsx bench/media.ts [options]`; `--help` lists them).
 *
 * What the media library costs (admin.yaml `uploadMedia`; openapi.yaml `getMediaFile`), with the
 * launcher and the app as `npm start` runs them (bench/db-scaling/processes.ts) on an empty
 * database. One owner uploads a 12-megapixel JPEG (4000 × 3000, a gradient with noise, made by
 * sharp), a 10 MB one, that one turned by its EXIF orientation and the 12-megapixel one as an
 * AVIF; then the first copy of the 12-megapixel image at 1280 wide in WebP is
 * timed, with the app's peak RSS over its idle RSS (VmHWM, reset before each step through
 * /proc/PID/clear_refs), then the largest copies, and a copy of the AVIF asked at once with one of
 * the same AVIF uploaded by a second workspace. Serving is measured with autocannon (c=10) in rounds that alternate: a
 * web-sized original (1600 × 1000, from this instance's cache) and a stored copy
 * (`?w=640&fm=webp`), each beside its baseline of the same run, the same bytes served by a bare
 * `node:http` server (bench/static-file-server.ts: one `createReadStream` per request, in its
 * own process); the rate at c=10, the p50 at c=10 and with one client.
 * Prints a table and writes it into BENCHMARKS.md's "media" section unless `--no-write`.
 * Targets (the issue): an original or a stored copy p50 ≤ 5 ms and ≥ 50 % of the static
 * server's req/s; the first 1280-wide WebP of a 12-megapixel JPEG ≤ 500 ms; peak RSS while
 * transforming ≤ idle + 150 MB; an upload of 10 MB ≤ 20 MB of extra memory.
 */
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import sharp from "sharp";
import { ensureEmbeddedDbBinary } from "../server/src/platform/embedded-db/launcher.js";
import { MEDIA, readOrEmpty, withSection } from "./benchmarks-section.js";
import { children, memoryOf, startApp, startLauncher } from "./db-scaling/processes.js";
import { optionsOrExit } from "./options.js";

const options = optionsOrExit({
  usage: "npm run bench:media -- [options]  (npx tsx bench/media.ts [options])",
  summary:
    "Uploads of a 12-megapixel and a 10 MB JPEG, the first 1280-wide WebP copy, and serving an\n" +
    "original and a copy against a bare node:http static file server, in one run.",
  options: {
    rounds: { kind: "number", arg: "N", min: 1, integer: true, help: "serving rounds (3)" },
    seconds: { kind: "number", arg: "S", min: 1, integer: true, help: "seconds per measure (5)" },
    "no-build": { kind: "flag", help: "run server/dist as it is (no tsc -p server first)" },
    "no-write": { kind: "flag", help: "print only; leave BENCHMARKS.md as it is" },
  },
});
const ROUNDS = options.rounds ?? 3;
const SECONDS = options.seconds ?? 5;
const MB = 2 ** 20;

/**
 * A photo-like JPEG: a gradient with noise, so it neither compresses to nothing nor is pure noise;
 * with an EXIF `orientation`, as a camera held on its side writes it.
 */
async function photo(
  width: number,
  height: number,
  quality: number,
  orientation?: number,
): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .raw()
    .toBuffer();
  const gradient = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      gradient[i] = (x * 255) / width;
      gradient[i + 1] = (y * 255) / height;
      gradient[i + 2] = 128;
    }
  }
  for (let i = 0; i < gradient.length; i++) {
    gradient[i] = ((gradient[i] ?? 0) * 3 + (noise[i] ?? 0)) / 4;
  }
  const image = sharp(gradient, { raw: { width, height, channels: 3 } });
  return (orientation === undefined ? image : image.withMetadata({ orientation }))
    .jpeg({ quality })
    .toBuffer();
}

const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, "5");

async function serve(
  url: string,
  connections: number,
): Promise<{ p50: number; rps: number; non2xx: number }> {
  const result = await autocannon({ url, connections, duration: SECONDS });
  return {
    p50: result.latency.p50 ?? Number.NaN,
    rps: result.requests.average,
    non2xx: result.non2xx,
  };
}

async function main(): Promise<void> {
  const root = path.resolve(import.meta.dirname, "..");
  if (options["no-build"] !== true) execFileSync("npx", ["tsc", "-p", "server"], { cwd: root });
  const group = children();
  const stops: (() => Promise<void>)[] = [];
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "pressroom-bench-media-"));
  try {
    const bin = await ensureEmbeddedDbBinary(() => undefined);
    const launcher = await startLauncher(group, bin, path.join(dataDir, "ferretdb"), false);
    stops.push(launcher.stop);
    const app = await startApp(group, launcher.uri, "pressroom", {
      DATA_DIR: dataDir,
      MEDIA_UPLOAD_LIMIT_BYTES: String(16 * MB),
    });
    stops.unshift(app.stop);
    const setup = await fetch(`${app.url}/api/admin/setup`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({
        email: "bench@example.com",
        name: "Bench",
        password: "a long bench password",
        workspaceName: "Bench",
      }),
    });
    const cookie = (setup.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const { workspaces } = (await setup.json()) as { workspaces: { id: string }[] };
    const ws = workspaces[0]?.id;
    const upload = async (bytes: Buffer, name: string, workspace = ws) => {
      const started = performance.now();
      const res = await fetch(`${app.url}/api/admin/workspaces/${workspace}/media?name=${name}`, {
        method: "POST",
        headers: { "content-type": "image/jpeg", cookie, origin: app.url },
        body: bytes,
      });
      const body = (await res.json()) as { url: string; bytes: number; message?: string };
      if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${body.message}`);
      return { ...body, ms: performance.now() - started };
    };

    const twelve = await photo(4000, 3000, 85);
    // Quality 96: 10.5 MB, the size the upload target names (92 made 6.5 MB).
    const ten = await photo(5200, 3900, 96);
    // The same photo turned by its EXIF orientation (6: shown a quarter turn clockwise).
    const turned = await photo(5200, 3900, 96, 6);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = memoryOf(app.pid).now;
    resetPeak(app.pid);
    const big = await upload(ten, "ten.jpg");
    const uploadPeak = memoryOf(app.pid).peak - idle;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idleTurned = memoryOf(app.pid).now;
    resetPeak(app.pid);
    const bigTurned = await upload(turned, "turned.jpg");
    const turnedPeak = memoryOf(app.pid).peak - idleTurned;
    // The 12-megapixel photo as an AVIF (4:4:4, sharp's default): kept as it came, not decoded.
    const avif = await sharp(twelve).avif({ quality: 60, effort: 2 }).toBuffer();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idleAvif = memoryOf(app.pid).now;
    resetPeak(app.pid);
    const bigAvif = await upload(avif, "twelve.avif");
    const avifPeak = memoryOf(app.pid).peak - idleAvif;
    // The same photo as an AVIF tagged Display P3 (as avifenc writes a phone's photo): kept as it
    // came, its profile with it.
    const p3 = await sharp(twelve).withIccProfile("p3").avif({ quality: 60, effort: 2 }).toBuffer();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idleP3 = memoryOf(app.pid).now;
    resetPeak(app.pid);
    const p3Avif = await upload(p3, "twelve-p3.avif");
    const p3Peak = memoryOf(app.pid).peak - idleP3;
    resetPeak(app.pid);
    const image = await upload(twelve, "twelve.jpg");
    const idleAfter = memoryOf(app.pid).now;
    resetPeak(app.pid);
    const t0 = performance.now();
    const first = await fetch(`${image.url}?w=1280&fm=webp`);
    await first.arrayBuffer();
    const firstMs = performance.now() - t0;
    const transformPeak = memoryOf(app.pid).peak - idleAfter;
    // The largest copies there are (no bound given: at most 2560 × 1920 pixels) of the
    // 20-megapixel photo, in the format whose encoder holds the most (AVIF), and of the turned
    // one in WebP.
    const largest: { name: string; ms: number; peak: number }[] = [];
    for (const [name, url] of [
      ["`?fm=avif` of the 20-megapixel upload", `${big.url}?fm=avif`],
      ["`?fm=webp` of the turned one", `${bigTurned.url}?fm=webp`],
      // Not a largest copy: the AVIF's decoder holds the whole frame whatever the copy's size.
      ["`?w=1280&fm=webp` of the 12-megapixel AVIF", `${bigAvif.url}?w=1280&fm=webp`],
    ] as const) {
      const idleBefore = memoryOf(app.pid).now;
      resetPeak(app.pid);
      const started = performance.now();
      await (await fetch(url)).arrayBuffer();
      const ms = performance.now() - started;
      largest.push({ name, ms, peak: memoryOf(app.pid).peak - idleBefore });
    }
    // Two workspaces' copies of a 12-megapixel AVIF each, asked at once (a width not made yet).
    const second = await fetch(`${app.url}/api/admin/workspaces`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: app.url },
      body: JSON.stringify({ name: "Bench two" }),
    });
    const otherAvif = await upload(
      avif,
      "twelve.avif",
      ((await second.json()) as { id: string }).id,
    );
    const idleTwo = memoryOf(app.pid).now;
    resetPeak(app.pid);
    const startedTwo = performance.now();
    await Promise.all(
      [bigAvif.url, otherAvif.url].map(async (url) =>
        (await fetch(`${url}?w=1024&fm=webp`)).arrayBuffer(),
      ),
    );
    const twoMs = performance.now() - startedTwo;
    const twoPeak = memoryOf(app.pid).peak - idleTwo;

    // A web-sized original (1600 × 1000) and a stored copy, each against the same bytes as a
    // static file served by bare node:http in its own process: the baselines of the same run.
    const web = await upload(await photo(1600, 1000, 82), "web.jpg");
    const copyUrl = `${image.url}?w=640&fm=webp`;
    const pairs: { name: string; url: string; staticUrl: string; bytes: number }[] = [];
    for (const [name, url] of [
      ["original, 1600 × 1000 JPEG (from the cache)", web.url],
      ["copy ?w=640&fm=webp (stored)", copyUrl],
    ] as const) {
      const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
      const file = path.join(dataDir, `static-${pairs.length}`);
      await writeFile(file, bytes);
      const server = spawn(
        process.execPath,
        ["--import", "tsx", "bench/static-file-server.ts", file],
        { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
      );
      stops.unshift(group.track(server, "static file server").stop);
      const staticUrl = await new Promise<string>((resolve) =>
        server.stdout?.once("data", (d: Buffer) => resolve(d.toString().trim())),
      );
      pairs.push({ name, url, staticUrl, bytes: bytes.length });
    }

    // c=10 for the rate; one client for the time a request takes, which at c=10 is the
    // queue's (the load generator, on the same two cores, is the bottleneck of both servers).
    const rows: Record<string, { p50: number[]; p50One: number[]; rps: number[]; non2xx: number }> =
      {};
    const kinds: [string, string][] = pairs.flatMap((p): [string, string][] => [
      [`${p.name}: static file, bare node:http`, p.staticUrl],
      [`${p.name}: Pressroom`, p.url],
    ]);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? kinds : [...kinds].reverse();
      for (const [name, url] of order) {
        const r = await serve(url, 10);
        const one = await serve(url, 1);
        const row = rows[name] ?? { p50: [], p50One: [], rps: [], non2xx: 0 };
        rows[name] = row;
        row.p50.push(r.p50);
        row.p50One.push(one.p50);
        row.rps.push(r.rps);
        row.non2xx += r.non2xx + one.non2xx;
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const figures = (name: string) => {
      const row = rows[name] ?? { p50: [], p50One: [], rps: [], non2xx: 0 };
      return {
        p50: median(row.p50),
        p50One: median(row.p50One),
        rps: median(row.rps),
        non2xx: row.non2xx,
      };
    };
    const lines = [
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${os.cpus().length} cores, Node ${process.version}; \`npm run bench:media\`.`,
      "",
      "| measure | figure | target |",
      "|---|---|---|",
      `| upload of a ${(ten.length / MB).toFixed(1)} MB JPEG (5200 × 3900) | ${Math.round(big.ms)} ms, app peak +${Math.round(uploadPeak / MB)} MB over idle (${Math.round(idle / MB)} MB) | ≤ 20 MB extra |`,
      `| upload of the same photo turned by its EXIF orientation (${(turned.length / MB).toFixed(1)} MB) | ${Math.round(bigTurned.ms)} ms, app peak +${Math.round(turnedPeak / MB)} MB over idle (${Math.round(idleTurned / MB)} MB) | ≤ 20 MB extra |`,
      `| upload of the 12-megapixel photo as an AVIF (${(avif.length / MB).toFixed(1)} MB) | ${Math.round(bigAvif.ms)} ms, app peak +${Math.round(avifPeak / MB)} MB over idle (${Math.round(idleAvif / MB)} MB) | ≤ 20 MB extra |`,
      `| upload of the same AVIF tagged Display P3 (${(p3.length / MB).toFixed(1)} MB) | ${Math.round(p3Avif.ms)} ms, app peak +${Math.round(p3Peak / MB)} MB over idle (${Math.round(idleP3 / MB)} MB) | ≤ 20 MB extra |`,
      `| upload of a 12-megapixel JPEG (${(twelve.length / MB).toFixed(1)} MB) | ${Math.round(image.ms)} ms | — |`,
      `| first 1280-wide WebP of it | ${Math.round(firstMs)} ms, app peak +${Math.round(transformPeak / MB)} MB over idle | ≤ 500 ms; ≤ 150 MB |`,
      ...largest.map(
        (l) =>
          `| ${l.name.includes("AVIF") ? "copy" : "largest copy"}, ${l.name} | ${Math.round(l.ms)} ms, app peak +${Math.round(l.peak / MB)} MB over idle | ≤ 150 MB |`,
      ),
      `| two workspaces' copies at once, \`?w=1024&fm=webp\` of a 12-megapixel AVIF each | ${Math.round(twoMs)} ms for both, app peak +${Math.round(twoPeak / MB)} MB over idle | ≤ 150 MB |`,
      "",
      "Where an upload's memory goes, option by option: \"Media: an upload's peak memory\" (by hand, above).",
      "",
      `Serving, autocannon, ${SECONDS} s each at c=10 and then with one client, ${ROUNDS} alternated rounds, medians (targets: p50 ≤ 5 ms, ≥ 50 % of the static file's req/s; autocannon's latencies are whole milliseconds):`,
      "",
      "| served | bytes | static file p50, one client / c=10 | static req/s | Pressroom p50, one client / c=10 | Pressroom req/s | ratio | non-2xx |",
      "|---|---|---|---|---|---|---|---|",
      ...pairs.map((p) => {
        const base = figures(`${p.name}: static file, bare node:http`);
        const ours = figures(`${p.name}: Pressroom`);
        return `| ${p.name} | ${(p.bytes / 1024).toFixed(0)} KB | ${base.p50One} / ${base.p50} ms | ${Math.round(base.rps)} | ${ours.p50One} / ${ours.p50} ms | ${Math.round(ours.rps)} | ${Math.round((ours.rps / base.rps) * 100)} % | ${base.non2xx + ours.non2xx} |`;
      }),
    ];
    const table = lines.join("\n");
    console.log(table);
    if (options["no-write"] !== true) {
      const target = path.join(root, "BENCHMARKS.md");
      await writeFile(
        target,
        withSection(await readOrEmpty(target), MEDIA, `## Media\n\n${table}`),
      );
    }
  } finally {
    for (const stop of stops) await stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
