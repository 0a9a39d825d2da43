// The media library (admin.yaml, tag Media; openapi.yaml `getMediaFile`): uploads streamed and
// typed by their bytes, stored with no metadata but a JPEG's orientation, the same bytes one image, an animated
// GIF kept animated where a copy's format can be, public immutable URLs with copies made once,
// Range and 304, and the bad input the spec names: 413 past the size limit (declared or not),
// 415 for anything that is not a whole image of the five types, 422 past the pixel limit,
// nothing left behind by a refused or interrupted upload, another workspace's image a 404.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../openapi/generated/admin.js";
import { AdminClient, OWNER } from "../support/admin-client.js";
import { damagedAvif } from "../support/damaged-avif.js";
import { type TestDb, useTestDb } from "../support/test-db.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

type Media = components["schemas"]["Media"];

let t: TestDb;
let dataDir: string;
let server: TestServer;
let owner: AdminClient;
let ws: string;
let otherWs: string;

beforeAll(async () => {
  t = await useTestDb();
  dataDir = await mkdtemp(path.join(tmpdir(), "pressroom-media-"));
  server = await startTestServer(t.db, {
    DATA_DIR: dataDir,
    VALIDATE_RESPONSES: "true",
    MEDIA_UPLOAD_LIMIT_BYTES: "262144",
    MEDIA_MAX_PIXELS: "8000000",
  });
  owner = new AdminClient(server.url);
  ws = (await owner.post<{ workspaces: { id: string }[] }>("/setup", OWNER)).body.workspaces[0]
    ?.id as string;
  otherWs = (await owner.post<{ id: string }>("/workspaces", { name: "Elsewhere" })).body.id;
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** An upload as the dashboard sends it: the bytes as the body, the name and alt in the query. */
async function upload(
  bytes: Uint8Array,
  query: Record<string, string>,
  { workspace = ws, type = "application/octet-stream" } = {},
): Promise<{ status: number; body: Media & { message?: string } }> {
  const res = await fetch(
    `${server.url}/api/admin/workspaces/${workspace}/media?${new URLSearchParams(query)}`,
    {
      method: "POST",
      headers: { "content-type": type, cookie: owner.cookie ?? "", origin: server.url },
      body: Buffer.from(bytes),
    },
  );
  return { status: res.status, body: (await res.json()) as Media & { message?: string } };
}

const pixels = (width: number, height: number, colour = "#3a7") =>
  sharp({ create: { width, height, channels: 3, background: colour } });

const publicUrl = (media: Media, query = "") => `${media.url}${query}`;

/**
 * The copy at `url` of #2a7 tagged Display P3 (held as (82, 167, 125)) is converted back to sRGB
 * by the profile, near (34, 170, 119) again, and untagged: left as it is, it would look wrong.
 */
async function expectConvertedBack(url: string): Promise<void> {
  const copy = Buffer.from(await (await fetch(url)).arrayBuffer());
  const [meta, stats] = await Promise.all([sharp(copy).metadata(), sharp(copy).stats()]);
  expect(meta.hasProfile).toBe(false);
  const means = stats.channels.map((c) => c.mean);
  [34, 170, 119].forEach((want, i) => {
    expect(Math.abs((means[i] ?? 0) - want)).toBeLessThan(6);
  });
}

/** What sharp reads of a served file (every frame of it, with `animated`). */
const metadataOf = async (res: Response, options: { animated?: boolean } = {}) =>
  sharp(Buffer.from(await res.arrayBuffer()), options).metadata();

async function incomingLeft(): Promise<string[]> {
  try {
    return await readdir(path.join(dataDir, "media", "incoming"));
  } catch {
    return [];
  }
}

describe("uploads (admin.yaml uploadMedia)", () => {
  it("a turned photo keeps its image data and its orientation alone: EXIF and GPS gone, its size and copies upright, the same bytes again the same image", async () => {
    // 40 × 20 pixels, red on the left and blue on the right, shown turned 90° clockwise by its
    // EXIF orientation (6), with a camera name and a GPS position.
    const raw = Buffer.alloc(40 * 20 * 3);
    for (let i = 0; i < 40 * 20; i++) raw.set(i % 40 < 20 ? [220, 30, 30] : [30, 30, 220], i * 3);
    const photo = await sharp(raw, { raw: { width: 40, height: 20, channels: 3 } })
      .jpeg({ quality: 90 })
      .withExif({
        IFD0: { Make: "Pressroom Test Camera" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "52/1 22/1 0/1" },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const first = await upload(photo, { name: "Holiday Photo.JPEG", alt: "A green field" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      name: "holiday-photo.jpg",
      alt: "A green field",
      type: "jpeg",
      width: 20,
      height: 40,
    });
    expect(first.body.url).toBe(
      `${server.url}/api/consumer/media/${first.body.id}/holiday-photo.jpg`,
    );

    const served = await fetch(publicUrl(first.body));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(served.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const stored = Buffer.from(await served.arrayBuffer());
    expect(stored.length).toBe(first.body.bytes);
    // Its image data as it came (the same pixels decoded, none encoded again), shown upright by
    // the one EXIF tag it keeps: its orientation, in a block of 32 bytes with nothing else.
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height, meta.orientation, meta.exif?.length]).toEqual([40, 20, 6, 32]);
    expect((await sharp(stored).raw().toBuffer()).equals(await sharp(photo).raw().toBuffer())).toBe(
      true,
    );
    expect(stored.includes(Buffer.from("Pressroom Test Camera"))).toBe(false);
    expect(stored.includes(Buffer.from("GPS"))).toBe(false);
    expect((await sharp(stored).autoOrient().metadata()).autoOrient).toEqual({
      width: 20,
      height: 40,
    });

    // A copy is turned in its pixels, with no metadata: red (the left) on top, blue below.
    const copy = Buffer.from(await (await fetch(publicUrl(first.body, "?fm=png"))).arrayBuffer());
    const copyMeta = await sharp(copy).metadata();
    expect([copyMeta.width, copyMeta.height, copyMeta.orientation, copyMeta.exif]).toEqual([
      20,
      40,
      undefined,
      undefined,
    ]);
    const pixel = async (top: number) => [
      ...(await sharp(copy).extract({ left: 10, top, width: 1, height: 1 }).raw().toBuffer()),
    ];
    const [top, bottom] = [await pixel(5), await pixel(35)];
    expect(top[0]).toBeGreaterThan(150);
    expect(top[2]).toBeLessThan(100);
    expect(bottom[2]).toBeGreaterThan(150);
    expect(bottom[0]).toBeLessThan(100);

    const again = await upload(photo, { name: "copy.jpg" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it("an upright JPEG keeps its image data byte for byte: only its metadata and trailing bytes go", async () => {
    const plain = await pixels(64, 48, "#a52").jpeg({ quality: 70 }).toBuffer();
    const exif = await pixels(64, 48, "#a52")
      .jpeg({ quality: 70 })
      .withExif({
        IFD0: { Make: "Pressroom Test Camera" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "52/1 22/1 0/1" },
      })
      .toBuffer();
    expect((await sharp(exif).metadata()).orientation ?? 1).toBe(1);
    // With a zip appended, as a polyglot would have it.
    const sent = Buffer.concat([exif, Buffer.from("PK\x03\x04 a zip after the image", "latin1")]);
    const res = await upload(sent, { name: "upright.jpg" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ width: 64, height: 48, bytes: plain.length });
    const stored = Buffer.from(await (await fetch(publicUrl(res.body))).arrayBuffer());
    expect(stored.equals(plain)).toBe(true);
  });

  it("a JPEG tagged sRGB is kept without its profile; one tagged Display P3 is kept with it, its copies converted to sRGB", async () => {
    const tagged = (profile: "srgb" | "p3") =>
      pixels(64, 48, "#2a7").jpeg({ quality: 70 }).withIccProfile(profile).toBuffer();
    const srgb = await tagged("srgb");
    // The upload without its APP2 (ICC) segments: what keeping it as it came stores.
    const segments: Buffer[] = [srgb.subarray(0, 2)];
    let at = 2;
    while (srgb[at + 1] !== 0xda) {
      const end = at + 2 + srgb.readUInt16BE(at + 2);
      if (srgb[at + 1] !== 0xe2) segments.push(srgb.subarray(at, end));
      at = end;
    }
    const untagged = Buffer.concat([...segments, srgb.subarray(at)]);
    const kept = await upload(srgb, { name: "srgb.jpg" });
    expect(kept.status).toBe(201);
    const keptBytes = Buffer.from(await (await fetch(publicUrl(kept.body))).arrayBuffer());
    expect(keptBytes.equals(untagged)).toBe(true);

    // sharp's JPEG tagged Display P3 holds the profile, its tables and its data, nothing else:
    // kept byte for byte.
    const p3Bytes = await tagged("p3");
    const p3 = await upload(p3Bytes, { name: "p3.jpg" });
    expect(p3.status).toBe(201);
    const original = Buffer.from(await (await fetch(publicUrl(p3.body))).arrayBuffer());
    expect(original.equals(p3Bytes)).toBe(true);
    await expectConvertedBack(publicUrl(p3.body, "?w=64&fm=webp"));
  });

  it("an AVIF tagged Display P3 is kept with its profile whole; its copies are converted to sRGB", async () => {
    const sent = await pixels(64, 48, "#2a7")
      .withIccProfile("p3")
      .avif({ quality: 90 })
      .withExif({ IFD0: { ImageDescription: "GPS 51.5007 N" } })
      .toBuffer();
    const res = await upload(sent, { name: "p3.avif" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "avif", width: 64, height: 48 });
    const original = Buffer.from(await (await fetch(publicUrl(res.body))).arrayBuffer());
    expect(original.includes("GPS")).toBe(false);
    const [sentMeta, keptMeta] = await Promise.all([
      sharp(sent).metadata(),
      sharp(original).metadata(),
    ]);
    expect(keptMeta.icc?.equals(sentMeta.icc ?? Buffer.alloc(0))).toBe(true);
    // Its samples as they came, P3's (82, 167, 125) for #2a7.
    const samples = await sharp(original).keepIccProfile().raw().toBuffer();
    expect((await sharp(sent).keepIccProfile().raw().toBuffer()).equals(samples)).toBe(true);
    await expectConvertedBack(publicUrl(res.body, "?w=64&fm=png"));
  });

  it("the type is told by the bytes, never by the name or Content-Type", async () => {
    const png = await pixels(8, 8, "#123").png().toBuffer();
    const res = await upload(png, { name: "looks-like.jpg" }, { type: "image/jpeg" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "png", name: "looks-like.png" });
  });

  it.each([
    ["webp", () => pixels(60, 40, "#246").webp({ quality: 90 }).toBuffer()],
    ["avif", () => pixels(60, 40, "#246").avif({ quality: 60 }).toBuffer()],
  ] as const)("%s bytes are taken as they are, whatever the name", async (type, make) => {
    const res = await upload(await make(), { name: `scan.bin`, alt: "A blue field" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type, name: `scan.${type}`, width: 60, height: 40 });
    const stored = await fetch(publicUrl(res.body));
    expect(stored.headers.get("content-type")).toBe(`image/${type}`);
    const meta = await metadataOf(stored);
    expect([meta.width, meta.height]).toEqual([60, 40]);
    expect(meta.format).toBe(type === "avif" ? "heif" : type);
  });

  it.each([
    ["SVG", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ["HTML", "<!doctype html><html><body><script>alert(1)</script></body></html>"],
    ["PDF", "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF"],
    ["a GIF header over HTML (polyglot)", "GIF89a<html><script>alert(1)</script></html>//////"],
    ["a PNG signature over nothing", "\x89PNG\r\n\x1a\n and then not a PNG at all, only text"],
  ])("%s is refused with 415 and nothing is stored", async (_kind, text) => {
    const before = (await owner.get<{ data: Media[] }>(`/workspaces/${ws}/media`)).body.data;
    const res = await upload(Buffer.from(text, "latin1"), { name: "evil.gif" });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      message: "Not an image Pressroom takes: send JPEG, PNG, WebP, AVIF or GIF bytes.",
    });
    const after = (await owner.get<{ data: Media[] }>(`/workspaces/${ws}/media`)).body.data;
    expect(after).toEqual(before);
    expect(await incomingLeft()).toEqual([]);
  });

  it("an animated GIF keeps its frames, as do its WebP copies; a JPEG or PNG copy has its first frame", async () => {
    const frames = await Promise.all(
      ["#f00", "#0f0", "#00f"].map((colour) => pixels(40, 30, colour).png().toBuffer()),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif({ delay: [100, 100, 100], loop: 0 })
      .toBuffer();
    const res = await upload(gif, { name: "blink.gif", alt: "Three colours in turn" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "gif", width: 40, height: 30 });
    const served = async (query: string) => {
      const file = await fetch(publicUrl(res.body, query));
      expect(file.status).toBe(200);
      const meta = await metadataOf(file, { animated: true });
      return [meta.format, meta.pages ?? 1, meta.pageHeight ?? meta.height];
    };
    expect(await served("")).toEqual(["gif", 3, 30]);
    expect(await served("?fm=webp")).toEqual(["webp", 3, 30]);
    expect(await served("?fm=jpeg")).toEqual(["jpeg", 1, 30]);
    expect(await served("?fm=png")).toEqual(["png", 1, 30]);
  });

  /** A PNG past the test server's 256 KB upload limit. */
  const overLimit = async () => {
    const noise = await sharp(
      Buffer.alloc(400 * 400 * 3, 0).map((_, i) => (i * 7919) % 251),
      {
        raw: { width: 400, height: 400, channels: 3 },
      },
    )
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(262_144);
    return noise;
  };

  it("past MEDIA_UPLOAD_LIMIT_BYTES the upload is 413 naming the limit, and nothing is stored", async () => {
    const res = await upload(await overLimit(), { name: "big.png" });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      message: "Image too large: at most 262144 bytes (MEDIA_UPLOAD_LIMIT_BYTES).",
    });
    expect(await incomingLeft()).toEqual([]);
  });

  it("a body without Content-Length is refused with 413 once past the limit, and the rest is never read", async () => {
    const png = await overLimit();
    const before = (await owner.get<{ data: Media[] }>(`/workspaces/${ws}/media`)).body.data;
    // Sent in chunks (Transfer-Encoding: chunked) until the answer comes, up to 64 MB: a server
    // that read on would answer only once all of it had gone.
    const most = 64 * 1024 * 1024;
    const filler = Buffer.alloc(64 * 1024, 7);
    const answer = await new Promise<{ status: number; body: string; sent: number }>((resolve) => {
      let sent = 0;
      let answered = false;
      const req = request(
        `${server.url}/api/admin/workspaces/${ws}/media?name=endless.png`,
        {
          method: "POST",
          headers: { "content-type": "image/png", cookie: owner.cookie ?? "", origin: server.url },
        },
        (res) => {
          answered = true;
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (part: string) => {
            body += part;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body, sent }));
        },
      );
      // The server closes the connection after its answer: writes after it fail.
      req.on("error", () => undefined);
      const pump = () => {
        while (!answered && sent < most) {
          const part = sent === 0 ? png : filler;
          sent += part.length;
          if (!req.write(part)) {
            req.once("drain", pump);
            return;
          }
        }
        if (!answered) req.end();
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      message: "Image too large: at most 262144 bytes (MEDIA_UPLOAD_LIMIT_BYTES).",
    });
    expect(answer.sent).toBeLessThan(most);
    await expect.poll(incomingLeft).toEqual([]);
    const after = (await owner.get<{ data: Media[] }>(`/workspaces/${ws}/media`)).body.data;
    expect(after).toEqual(before);
  });

  it("past MEDIA_MAX_PIXELS the upload is 422 naming the limit (a bomb costs only its header)", async () => {
    const bomb = await pixels(3000, 3000).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(262_144);
    const res = await upload(bomb, { name: "bomb.png" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "Image too large: more than 8000000 pixels (MEDIA_MAX_PIXELS).",
    });
  });

  it("an upload cut off mid-body leaves nothing behind", async () => {
    const png = await pixels(300, 200, "#abc").png({ compressionLevel: 0 }).toBuffer();
    const before = (await owner.get<{ data: Media[] }>(`/workspaces/${ws}/media`)).body.data;
    await new Promise<void>((resolve) => {
      const req = request(
        `${server.url}/api/admin/workspaces/${ws}/media?name=cut.png`,
        {
          method: "POST",
          headers: {
            "content-type": "image/png",
            "content-length": String(png.length),
            cookie: owner.cookie ?? "",
            origin: server.url,
          },
        },
        () => resolve(),
      );
      req.on("error", () => resolve());
      req.write(png.subarray(0, png.length / 2));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    await expect.poll(incomingLeft).toEqual([]);
    const after = (await owner.get<{ data: Media[] }>(`/workspaces/${ws}/media`)).body.data;
    expect(after).toEqual(before);
  });
});

describe("public URLs (openapi.yaml getMediaFile)", () => {
  let image: Media;
  beforeAll(async () => {
    const png = await pixels(600, 300, "#f40").png().toBuffer();
    image = (await upload(png, { name: "banner.png", alt: "An orange banner" })).body;
  });

  it("a copy in a documented width and format is made once and answered with a strong ETag and 304", async () => {
    const res = await fetch(publicUrl(image, "?w=128&fm=webp"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    const meta = await metadataOf(res);
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 128, 64]);
    const etag = res.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{24}-w128-webp"$/);
    const again = await fetch(publicUrl(image, "?w=128&fm=webp"), {
      headers: { "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    const copies = await t.db
      .collection("mediaFiles.files")
      .countDocuments({ filename: `${image.id}/w128-webp` });
    expect(copies).toBe(1);
  });

  it("an image is never enlarged, and cover fills both bounds", async () => {
    const big = await fetch(publicUrl(image, "?w=2560"));
    const bigMeta = await metadataOf(big);
    expect([bigMeta.width, bigMeta.height]).toEqual([600, 300]);
    const cover = await fetch(publicUrl(image, "?w=128&h=128&fit=cover&fm=jpeg&q=60"));
    const coverMeta = await metadataOf(cover);
    expect([coverMeta.format, coverMeta.width, coverMeta.height]).toEqual(["jpeg", 128, 128]);
  });

  it("a copy has at most 2560 × 1920 pixels: one that would have more is made smaller alike", async () => {
    // Solid colours: a few KB of PNG for 6 megapixels.
    const wide = await upload(await pixels(4000, 1500, "#28a").png().toBuffer(), {
      name: "wide.png",
    });
    const tall = await upload(await pixels(1000, 6000, "#28a").png().toBuffer(), {
      name: "tall.png",
    });
    expect([wide.status, tall.status]).toEqual([201, 201]);
    const sizeOf = async (media: Media, query: string) => {
      const meta = await metadataOf(await fetch(publicUrl(media, query)));
      return [meta.width ?? 0, meta.height ?? 0];
    };
    const within = ([width, height]: number[], ratio: number) => {
      expect((width ?? 0) * (height ?? 0)).toBeLessThanOrEqual(2560 * 1920);
      expect((width ?? 0) * (height ?? 0)).toBeGreaterThan(2560 * 1920 * 0.99);
      expect(Math.abs((width ?? 0) / (height ?? 1) - ratio)).toBeLessThan(0.01);
    };
    // As stored without parameters; a copy in another format, or at a width that would be
    // 5.5 megapixels, is made smaller in the same proportions.
    expect(await sizeOf(wide.body, "")).toEqual([4000, 1500]);
    within(await sizeOf(wide.body, "?fm=webp"), 4000 / 1500);
    within(await sizeOf(tall.body, "?w=960"), 1000 / 6000);
    // Below the limit, as asked: a tall image at a width of the set keeps that width.
    expect(await sizeOf(tall.body, "?w=640")).toEqual([640, 3840]);
    // Both bounds: the box itself scaled alike (2560 × 2560 → 2217 × 2217).
    const square = await upload(await pixels(2800, 2800, "#28a").png().toBuffer(), {
      name: "square.png",
    });
    expect(await sizeOf(square.body, "?w=2560&h=2560&fit=cover")).toEqual([2217, 2217]);
    expect(await sizeOf(square.body, "?w=1280&h=1280&fit=cover")).toEqual([1280, 1280]);
  });

  it("an AVIF damaged inside its frame is stored as it came, and its copies are a 422", async () => {
    // An AVIF is not decoded at upload (admin.yaml uploadMedia): damage its boxes and AV1
    // framing do not show is met when a copy is made (openapi.yaml MediaCopyImpossible).
    const avif = await damagedAvif();
    const res = await upload(avif, { name: "damaged.avif", alt: "Noise" });
    expect(res.status).toBe(201);
    const original = await fetch(publicUrl(res.body));
    expect(Buffer.from(await original.arrayBuffer()).subarray(-600)).toEqual(avif.subarray(-600));
    const copy = await fetch(publicUrl(res.body, "?w=64&fm=webp"));
    expect(copy.status).toBe(422);
    expect(copy.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await copy.json()).toEqual({
      message: "No copy of this image can be made: its image data does not decode.",
    });
  });

  it("a copy in AVIF is AVIF in 4:2:0, and contain pads to both bounds", async () => {
    const avif = await fetch(publicUrl(image, "?w=128&fm=avif"));
    expect(avif.headers.get("content-type")).toBe("image/avif");
    const bytes = Buffer.from(await avif.arrayBuffer());
    const avifMeta = await sharp(bytes).metadata();
    expect([avifMeta.format, avifMeta.compression, avifMeta.width, avifMeta.height]).toEqual([
      "heif",
      "av1",
      128,
      64,
    ]);
    // The AV1 codec configuration (AV1CodecConfigurationRecord, AV1 in ISOBMFF): its third
    // byte's bits 3 and 2 are chroma_subsampling_x and _y, both 1 in 4:2:0.
    const av1C = bytes.indexOf(Buffer.from("av1C", "latin1"));
    const flags = bytes[av1C + 6] ?? 0;
    expect([(flags >> 3) & 1, (flags >> 2) & 1]).toEqual([1, 1]);
    const contain = await fetch(publicUrl(image, "?w=128&h=128&fit=contain&fm=png"));
    const pngMeta = await metadataOf(contain);
    expect([pngMeta.format, pngMeta.width, pngMeta.height, pngMeta.hasAlpha]).toEqual([
      "png",
      128,
      128,
      true,
    ]);
  });

  it.each([
    ["?w=100", 400],
    ["?fm=svg", 400],
    ["?q=33", 400],
    ["?x=1", 400],
  ])("a width, format or quality outside the documented sets (%s) is %i", async (query, status) => {
    const res = await fetch(publicUrl(image, query));
    expect(res.status).toBe(status);
    expect(((await res.json()) as { message: string }).message).toMatch(/./);
  });

  it("Range answers one part with 206, and a range past the end is 416", async () => {
    const part = await fetch(publicUrl(image), { headers: { range: "bytes=0-9" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-9/${image.bytes}`);
    expect((await part.arrayBuffer()).byteLength).toBe(10);
    const whole = Buffer.from(await (await fetch(publicUrl(image))).arrayBuffer());
    const tail = await fetch(publicUrl(image), { headers: { range: "bytes=-5" } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 5));
    const past = await fetch(publicUrl(image), { headers: { range: `bytes=${image.bytes}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${image.bytes}`);
  });

  it("a name that is not the image's, or an unknown ID, is 404 with one message", async () => {
    for (const url of [
      `${server.url}/api/consumer/media/${image.id}/other.png`,
      `${server.url}/api/consumer/media/med_unknown0000000000/banner.png`,
    ]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: "Image not found." });
    }
  });
});

describe("the library (listMedia, getMedia, updateMedia, deleteMedia)", () => {
  it("search by name and alt words, pages by cursor, alt text changes", async () => {
    const made: Media[] = [];
    for (const [i, alt] of ["Red press", "Blue press", "Green field"].entries()) {
      const png = await pixels(10 + i, 10, ["#f00", "#00f", "#0f0"][i])
        .png()
        .toBuffer();
      made.push((await upload(png, { name: `library-${i}.png`, alt })).body);
    }
    const found = await owner.get<{ data: Media[] }>(`/workspaces/${ws}/media?q=pre`);
    expect(found.body.data.map((m) => m.alt)).toEqual(["Blue press", "Red press"]);
    const page1 = await owner.get<{ data: Media[]; nextCursor: string }>(
      `/workspaces/${ws}/media?limit=2`,
    );
    expect(page1.body.data.map((m) => m.id)).toEqual([made[2]?.id, made[1]?.id]);
    const page2 = await owner.get<{ data: Media[] }>(
      `/workspaces/${ws}/media?limit=2&cursor=${page1.body.nextCursor}`,
    );
    expect(page2.body.data[0]?.id).toBe(made[0]?.id);
    const changed = await owner.patch<Media>(`/workspaces/${ws}/media/${made[0]?.id}`, {
      alt: "A red printing press",
    });
    expect(changed.body.alt).toBe("A red printing press");
    const byNewAlt = await owner.get<{ data: Media[] }>(`/workspaces/${ws}/media?q=printing`);
    expect(byNewAlt.body.data.map((m) => m.id)).toEqual([made[0]?.id]);
  });

  it("another workspace's image is 404 through the admin API; a deleted image is 404 everywhere", async () => {
    const png = await pixels(12, 12, "#999").png().toBuffer();
    const image = (await upload(png, { name: "gone.png" })).body;
    expect((await owner.get(`/workspaces/${otherWs}/media/${image.id}`)).status).toBe(404);
    expect((await owner.delete(`/workspaces/${otherWs}/media/${image.id}`)).status).toBe(404);
    expect((await fetch(publicUrl(image, "?w=64"))).status).toBe(200);
    expect((await owner.delete(`/workspaces/${ws}/media/${image.id}`)).status).toBe(204);
    expect((await owner.get(`/workspaces/${ws}/media/${image.id}`)).status).toBe(404);
    expect((await fetch(publicUrl(image))).status).toBe(404);
    expect((await fetch(publicUrl(image, "?w=64"))).status).toBe(404);
    const files = await t.db
      .collection("mediaFiles.files")
      .countDocuments({ "metadata.mediaId": image.id });
    expect(files).toBe(0);
  });
});

describe("a blog's cover from the library (openapi.yaml Blog.coverImage)", () => {
  it("a released blog whose cover is a library image gets its URL, size and alt; one elsewhere or in another workspace's library gets null", async () => {
    const png = await pixels(320, 180, "#246").png().toBuffer();
    const image = (await upload(png, { name: "cover.png", alt: "A blue cover" })).body;
    const key = (await owner.post<{ secret: string }>(`/workspaces/${ws}/keys`, { name: "Site" }))
      .body.secret;
    const blogWith = async (coverImageUrl: string, coverImageAlt: string | null) => {
      const created = await owner.post<{ id: string; version: string }>(`/workspaces/${ws}/blogs`, {
        title: `Cover ${coverImageUrl.length} ${coverImageAlt ?? ""}`,
        bodyMarkdown: "Text.",
        coverImageUrl,
        coverImageAlt,
      });
      expect(created.status).toBe(201);
      await owner.post(`/workspaces/${ws}/blogs/${created.body.id}/release`, undefined, {
        "if-match": `"${created.body.version}"`,
      });
      return created.body.id;
    };
    const read = async (id: string, query = "") => {
      const res = await fetch(`${server.url}/api/consumer/blogs/${id}${query}`, {
        headers: { "x-api-key": key },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { coverImage: unknown };
    };
    const library = await blogWith(image.url, "A cover for spring");
    expect((await read(library)).coverImage).toEqual({
      url: image.url,
      width: 320,
      height: 180,
      alt: "A cover for spring",
    });
    expect(await read(library, "?fields=coverImage")).toEqual({
      id: library,
      coverImage: { url: image.url, width: 320, height: 180, alt: "A cover for spring" },
    });
    const elsewhere = await blogWith("https://images.example.com/cover.png", null);
    expect((await read(elsewhere)).coverImage).toBeNull();
    // Another workspace's library image: its URL is public, but it is not this workspace's cover.
    const png2 = await pixels(64, 36, "#642").png().toBuffer();
    const theirs = (
      await upload(png2, { name: "theirs.png", alt: "Not ours" }, { workspace: otherWs })
    ).body;
    const borrowed = await blogWith(theirs.url, "Borrowed");
    expect((await read(borrowed)).coverImage).toBeNull();
    const list = await fetch(`${server.url}/api/consumer/blogs?fields=id,coverImage`, {
      headers: { "x-api-key": key },
    });
    const page = (await list.json()) as { data: { id: string; coverImage: unknown }[] };
    expect(page.data.find((b) => b.id === library)?.coverImage).toMatchObject({ width: 320 });
    expect(page.data.find((b) => b.id === elsewhere)?.coverImage).toBeNull();
    expect(page.data.find((b) => b.id === borrowed)?.coverImage).toBeNull();
  });

  // openapi.yaml: a 304 means "unchanged", and `coverImage` is null once the library image is
  // deleted; so the deletion must change the ETag of every answer that showed the cover.
  it("deleting a blog's library cover changes the ETag of the blog and of the pages showing it, and not the feeds', which show the cover's URL alone", async () => {
    const png = await pixels(96, 54, "#a52").png().toBuffer();
    const image = (await upload(png, { name: "doomed.png", alt: "Soon gone" })).body;
    const key = (await owner.post<{ secret: string }>(`/workspaces/${ws}/keys`, { name: "Doom" }))
      .body.secret;
    const created = await owner.post<{ id: string; version: string }>(`/workspaces/${ws}/blogs`, {
      title: "A cover soon deleted",
      bodyMarkdown: "Text.",
      coverImageUrl: image.url,
      coverImageAlt: "Soon gone",
    });
    await owner.post(`/workspaces/${ws}/blogs/${created.body.id}/release`, undefined, {
      "if-match": `"${created.body.version}"`,
    });
    const reads = [
      `/blogs/${created.body.id}`,
      `/blogs/${created.body.id}?fields=id,coverImage`,
      "/blogs",
      "/blogs?fields=id,coverImage",
    ];
    const read = (path: string, etag?: string) =>
      fetch(`${server.url}/api/consumer${path}`, {
        headers: { "x-api-key": key, ...(etag === undefined ? {} : { "if-none-match": etag }) },
      });
    const coverOf = (body: unknown) =>
      "data" in (body as object)
        ? (body as { data: { id: string; coverImage: unknown }[] }).data.find(
            (b) => b.id === created.body.id,
          )?.coverImage
        : (body as { coverImage: unknown }).coverImage;
    const before = new Map<string, string>();
    for (const path of reads) {
      const res = await read(path);
      expect(coverOf(await res.json())).toMatchObject({ width: 96, height: 54 });
      before.set(path, res.headers.get("etag") ?? "");
      expect((await read(path, before.get(path))).status).toBe(304);
    }
    // The feeds (openapi.yaml, "Feeds") name the cover by its URL only: the same document after.
    const feeds = await owner.call<{ publicFeeds: { urls: Record<string, string> } }>(
      "PUT",
      `/workspaces/${ws}/public-feeds`,
      { linkTemplate: "https://example.com/{slug}" },
    );
    expect(feeds.status).toBe(200);
    const feedUrls = Object.values(feeds.body.publicFeeds.urls);
    const feedsBefore = new Map<string, { etag: string; text: string }>();
    for (const url of feedUrls) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      feedsBefore.set(url, { etag: res.headers.get("etag") ?? "", text: await res.text() });
    }
    expect(feedsBefore.get(feeds.body.publicFeeds.urls.json ?? "")?.text).toContain(image.url);

    const deleted = await owner.delete(`/workspaces/${ws}/media/${image.id}?force=true`);
    expect(deleted.status).toBe(204);
    for (const path of reads) {
      const res = await read(path, before.get(path));
      expect(res.status, path).toBe(200);
      expect(coverOf(await res.json()), path).toBeNull();
      expect(res.headers.get("etag"), path).not.toBe(before.get(path));
    }
    for (const [url, was] of feedsBefore) {
      const res = await fetch(url);
      expect(await res.text(), url).toBe(was.text);
      expect(res.headers.get("etag"), url).toBe(was.etag);
      expect((await fetch(url, { headers: { "if-none-match": was.etag } })).status, url).toBe(304);
    }
  });
});
