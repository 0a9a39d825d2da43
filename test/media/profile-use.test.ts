/**
 * A profile is kept with an image only when libvips converts its copies by it (admin.yaml
 * `uploadMedia`; server/src/media/profile-use.ts): lcms reads the profile's tags when it builds a
 * transform, and a profile it cannot use would leave the copies' colours as they are.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseImage } from "../../server/src/media/image-normalise.js";
import { libvipsConvertsBy } from "../../server/src/media/profile-use.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pressroom-profile-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** libvips' Display P3 profile; its tags: desc cprt wtpt chad rXYZ gXYZ bXYZ, then rTRC gTRC bTRC sharing one curve. */
async function p3Profile(): Promise<Buffer> {
  const tagged = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#a52" } })
    .jpeg()
    .withIccProfile("p3")
    .toBuffer();
  const { icc } = await sharp(tagged).metadata();
  if (icc === undefined) throw new Error("no profile");
  return icc;
}

/** The profile with its shared curve's type made one lcms does not know. */
async function unknownCurve(): Promise<Buffer> {
  const profile = Buffer.from(await p3Profile());
  const curve = profile.readUInt32BE(132 + 7 * 12 + 4);
  expect(profile.toString("latin1", curve, curve + 4)).toMatch(/curv|para/);
  profile.write("XXXX", curve, "latin1");
  return profile;
}

describe("a profile libvips converts by", () => {
  it("Display P3's is one; one whose curves are of a type lcms does not know is not", async () => {
    expect(await libvipsConvertsBy(await p3Profile())).toBe(true);
    expect(await libvipsConvertsBy(await unknownCurve())).toBe(false);
  });

  it("a header alone, an empty profile or one of more than 255 JPEG segments is not", async () => {
    const header = Buffer.from((await p3Profile()).subarray(0, 132));
    header.writeUInt32BE(132, 0);
    header.writeUInt32BE(0, 128);
    expect(await libvipsConvertsBy(header)).toBe(false);
    expect(await libvipsConvertsBy(Buffer.alloc(0))).toBe(false);
    expect(await libvipsConvertsBy(Buffer.alloc(255 * 65_519 + 1))).toBe(false);
  });

  it("a JPEG tagged with a profile lcms cannot use is converted, not kept with it", async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#2a7" } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const [good, bad] = await Promise.all([p3Profile(), unknownCurve()]);
    const tagged = (profile: Buffer) => {
      const head = Buffer.from([0xff, 0xe2, 0, 0]);
      head.writeUInt16BE(2 + 14 + profile.length, 2);
      const icc = Buffer.concat([head, Buffer.from("ICC_PROFILE\0\x01\x01", "latin1"), profile]);
      return Buffer.concat([jpeg.subarray(0, 2), icc, jpeg.subarray(2)]);
    };
    for (const [profile, kept] of [
      [good, true],
      [bad, false],
    ] as const) {
      const from = path.join(dir, `${kept ? "good" : "bad"}.jpg`);
      await writeFile(from, tagged(profile));
      await normaliseImage(from, "jpeg", `${from}.out`, 1_000_000);
      const out = await readFile(`${from}.out`);
      expect(out.equals(tagged(profile))).toBe(kept);
      expect((await sharp(out).metadata()).icc?.equals(profile) ?? false).toBe(kept);
    }
  });
});
