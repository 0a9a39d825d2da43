import sharp from "sharp";

/**
 * A 200 × 150 AVIF (noise, sharp's encoder) whose AV1 frame is damaged past its headers: its
 * boxes and its OBU framing are whole, so an upload keeps it as it came (admin.yaml
 * `uploadMedia`), and no copy of it decodes (openapi.yaml `MediaCopyImpossible`).
 */
export async function damagedAvif(): Promise<Buffer> {
  const noise = Buffer.alloc(200 * 150 * 3).map((_, i) => (i * 7919 + (i >> 5)) % 256);
  const avif = await sharp(noise, { raw: { width: 200, height: 150, channels: 3 } })
    .avif({ quality: 60 })
    .toBuffer();
  const mdat = avif.indexOf("mdat");
  for (let at = mdat + 300; at < mdat + 900; at++) avif[at] = ((avif[at] ?? 0) * 31 + 7) & 255;
  return avif;
}
