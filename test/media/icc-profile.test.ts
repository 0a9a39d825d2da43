/**
 * An upright JPEG tagged with an sRGB profile is kept as it came, the profile dropped (it changes
 * nothing: untagged images are sRGB); any other profile means the image is converted (admin.yaml
 * `uploadMedia`; server/src/media/icc-profile.ts). A profile is sRGB when its description names
 * sRGB and its colorants are sRGB's, in ICC v2 and v4 alike.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { describesRgbImage, isSrgbProfile } from "../../server/src/media/icc-profile.js";

/** libvips' own profile of that name, as an image tagged with it carries it. */
async function libvipsProfile(name: "srgb" | "p3"): Promise<Buffer> {
  const tagged = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#a52" } })
    .jpeg()
    .withIccProfile(name)
    .toBuffer();
  const { icc } = await sharp(tagged).metadata();
  if (icc === undefined) throw new Error(`no ${name} profile`);
  return icc;
}

const SRGB = [
  [0.4361, 0.2225, 0.0139],
  [0.3851, 0.7169, 0.0971],
  [0.1431, 0.0606, 0.7141],
];
const P3 = [
  [0.5151, 0.2412, 0.0],
  [0.292, 0.6922, 0.0418],
  [0.1571, 0.0666, 0.7831],
];

/** An ICC v2 profile as most software wrote them: a `desc` text tag and three colorants. */
function v2Profile(description: string, colorants: number[][]): Buffer {
  const desc = Buffer.alloc(12 + description.length + 1 + 79);
  desc.write("desc", 0, "latin1");
  desc.writeUInt32BE(description.length + 1, 8);
  desc.write(description, 12, "latin1");
  const xyz = (values: number[]) => {
    const tag = Buffer.alloc(20);
    tag.write("XYZ ", 0, "latin1");
    values.forEach((v, i) => {
      tag.writeInt32BE(Math.round(v * 65536), 8 + i * 4);
    });
    return tag;
  };
  // A tone curve of gamma 2.2 (one u8Fixed8 value), for each of the three.
  const curve = Buffer.from("curv\0\0\0\0\0\0\0\x01\x02\x33\0\0", "latin1");
  const tags: [string, Buffer][] = [
    ["desc", desc],
    ["rXYZ", xyz(colorants[0] ?? [])],
    ["gXYZ", xyz(colorants[1] ?? [])],
    ["bXYZ", xyz(colorants[2] ?? [])],
    ["rTRC", curve],
    ["gTRC", curve],
    ["bTRC", curve],
  ];
  const header = Buffer.alloc(128);
  header[8] = 2;
  header.write("mntrRGB XYZ ", 12, "latin1");
  header.write("acsp", 36, "latin1");
  const table = Buffer.alloc(4 + tags.length * 12);
  table.writeUInt32BE(tags.length, 0);
  let offset = 128 + table.length;
  tags.forEach(([name, body], i) => {
    table.write(name, 4 + i * 12, "latin1");
    table.writeUInt32BE(offset, 8 + i * 12);
    table.writeUInt32BE(body.length, 12 + i * 12);
    offset += body.length;
  });
  const profile = Buffer.concat([header, table, ...tags.map(([, body]) => body)]);
  profile.writeUInt32BE(profile.length, 0);
  return profile;
}

describe("an sRGB colour profile is told from any other", () => {
  it("libvips' sRGB profile (ICC v4, mluc) is sRGB; its Display P3 one is not", async () => {
    const srgb = await libvipsProfile("srgb");
    const copy = Buffer.from(srgb);
    expect(isSrgbProfile(srgb)).toBe(true);
    expect(srgb.equals(copy)).toBe(true);
    expect(isSrgbProfile(await libvipsProfile("p3"))).toBe(false);
  });

  it("an ICC v2 profile needs both: a name with sRGB in it and sRGB's colorants", () => {
    expect(isSrgbProfile(v2Profile("sRGB IEC61966-2.1", SRGB))).toBe(true);
    expect(isSrgbProfile(v2Profile("sRGB IEC61966-2.1", P3))).toBe(false);
    expect(isSrgbProfile(v2Profile("Jo's calibrated monitor", SRGB))).toBe(false);
  });

  it("a profile cut short anywhere, or not a profile, is not sRGB and throws nothing", async () => {
    const srgb = await libvipsProfile("srgb");
    for (let length = 0; length < srgb.length; length += 7) {
      expect(isSrgbProfile(srgb.subarray(0, length))).toBe(false);
    }
    expect(isSrgbProfile(Buffer.from("not a colour profile at all"))).toBe(false);
    const wrongCount = Buffer.from(srgb);
    wrongCount.writeUInt32BE(0xffffffff, 128);
    expect(() => isSrgbProfile(wrongCount)).not.toThrow();
  });
});

/**
 * An image keeps a profile that describes it, whatever its colours (admin.yaml `uploadMedia`): a
 * whole ICC v2 or v4 profile of at most 64 KB, of a display, an input device or a colour space,
 * from RGB to XYZ or Lab by colorants and curves or by a table, holding only tags that describe
 * colour (and its description and copyright), each once, within it after their table
 * (ICC.1:2022 §7, §9).
 */
describe("a profile that describes an image", () => {
  /** `profile` with `bytes` written at `at`. */
  const edited = (profile: Buffer, at: number, bytes: Buffer | string) => {
    const out = Buffer.from(profile);
    if (typeof bytes === "string") out.write(bytes, at, "latin1");
    else bytes.copy(out, at);
    return out;
  };
  const u32 = (value: number) => {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(value);
    return out;
  };

  it("libvips' Display P3 and sRGB profiles (v4) and an ICC v2 one describe an RGB image", async () => {
    for (const profile of [
      await libvipsProfile("p3"),
      await libvipsProfile("srgb"),
      v2Profile("Adobe RGB (1998)", P3),
    ]) {
      expect(describesRgbImage(profile)).toBe(true);
    }
  });

  it.each([
    ["its size not its length", 0, u32(1000)],
    ["no acsp signature", 36, "ascp"],
    ["version 5 (iccMAX)", 8, Buffer.from([5])],
    ["version 1", 8, Buffer.from([1])],
    ["the class of a device link", 12, "link"],
    ["the class of an abstract profile", 12, "abst"],
    ["the class of a printer", 12, "prtr"],
    ["CMYK as its colour space", 16, "CMYK"],
    ["XYZ as its colour space", 16, "XYZ "],
    ["grey as its colour space", 16, "GRAY"],
    ["RGB as its connection space", 20, "RGB "],
    ["a tag table past its end", 128, u32(1000)],
    ["a tag past its end", 132 + 4, u32(10_000)],
    ["a tag longer than what follows it", 132 + 8, u32(10_000)],
    ["a tag inside the tag table", 132 + 4, u32(132)],
    // libvips' profile's tags: desc cprt wtpt chad rXYZ gXYZ bXYZ rTRC gTRC bTRC.
    ["a device's calibration (vcgt) in place of its copyright", 132 + 12, "vcgt"],
    ["a dictionary (meta) in place of its copyright", 132 + 12, "meta"],
    ["a device's model (dmdd) in place of its copyright", 132 + 12, "dmdd"],
    ["its description twice", 132 + 12, "desc"],
    ["no red curve (nor a table)", 132 + 7 * 12, "A2B1"],
  ])("a profile with %s describes no image", async (_, at, bytes) => {
    const p3 = await libvipsProfile("p3");
    expect(describesRgbImage(p3)).toBe(true);
    expect(describesRgbImage(edited(p3, at, bytes))).toBe(false);
  });

  it("a profile of colours by a table (A2B0) describes an image; one past 64 KB does not", async () => {
    const p3 = await libvipsProfile("p3");
    // Its red curve's tag named A2B0 (its contents are lcms' to read: profile-use.ts).
    expect(describesRgbImage(edited(p3, 132 + 7 * 12, "A2B0"))).toBe(true);
    // Its shared curve (the last tag) made 64 KB long, and one byte longer.
    const curve = p3.readUInt32BE(132 + 7 * 12 + 4);
    for (const [length, describes] of [
      [64 * 1024, true],
      [64 * 1024 + 1, false],
    ] as const) {
      const long = Buffer.concat([p3, Buffer.alloc(length - p3.length)]);
      long.writeUInt32BE(length, 0);
      for (const tag of [7, 8, 9]) long.writeUInt32BE(length - curve, 132 + tag * 12 + 8);
      expect(describesRgbImage(long)).toBe(describes);
    }
  });

  it("a profile with bytes after its last tag, past the padding to 4, describes no image", async () => {
    const p3 = await libvipsProfile("p3");
    for (const [extra, describes] of [
      [3, true],
      [4, false],
    ] as const) {
      const trailed = Buffer.concat([p3, Buffer.alloc(extra, 0x41)]);
      expect(describesRgbImage(edited(trailed, 0, u32(trailed.length)))).toBe(describes);
    }
  });

  it("a profile cut short anywhere, or not a profile, describes nothing and throws nothing", async () => {
    const p3 = await libvipsProfile("p3");
    for (let length = 0; length < p3.length; length += 7) {
      const short = p3.subarray(0, length);
      expect(describesRgbImage(short)).toBe(false);
      // Its header's size put right: the tags it names then lie past it.
      if (length >= 132) expect(describesRgbImage(edited(short, 0, u32(length)))).toBe(false);
    }
    expect(describesRgbImage(Buffer.from("not a colour profile at all"))).toBe(false);
  });
});
