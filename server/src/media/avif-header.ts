/**
 * The boxes of a kept AVIF (avif-boxes.ts) up to its `mdat`'s data, written from what
 * avif-items.ts kept: `ftyp`; `meta` with `hdlr`, `pitm`, `iloc`, `iinf`, `iref` and `iprp`
 * (HEIF ISO/IEC 23008-12 §9; ISO/IEC 14496-12 §8.11); the `mdat` header.
 */
import type { KeptImage } from "./avif-items.js";
import { box, full, int } from "./isobmff.js";

/**
 * The new file up to its `mdat`'s data: item IDs as they were, each item's data one extent, the
 * items one after the other in the `mdat` (so the `iloc` offsets follow from the sizes before).
 */
export function avifHeader(
  image: KeptImage,
  lengths: readonly number[],
  brands: readonly string[],
): Buffer {
  const items = image.items.map((kept, i) => ({
    item: kept.item,
    properties: kept.properties,
    length: lengths[i] ?? 0,
  }));
  const wide = items.some(({ item }) => item.id > 0xffff);
  const id = (value: number) => int(value, wide ? 4 : 2);
  const wideIndex = image.properties.length > 127;
  const ftyp = box("ftyp", Buffer.from(`avif\0\0\0\0${brands.join("")}`, "latin1"));
  const hdlr = full("hdlr", 0, 0, int(0, 4), Buffer.from("pict", "latin1"), Buffer.alloc(13));
  const pitm = full("pitm", wide ? 1 : 0, 0, id(image.primaryId));
  const infes = items.map(({ item }) =>
    full(
      "infe",
      wide ? 3 : 2,
      item.hidden ? 1 : 0,
      id(item.id),
      int(0, 2),
      Buffer.from(`${item.type}\0`, "latin1"),
    ),
  );
  const iinf = full("iinf", 0, 0, int(items.length, 2), ...infes);
  const refs = image.references.map((r) =>
    box(r.type, id(r.from), int(r.to.length, 2), ...r.to.map(id)),
  );
  const iref = refs.length > 0 ? [full("iref", wide ? 1 : 0, 0, ...refs)] : [];
  const essential = wideIndex ? 0x8000 : 0x80;
  const ipma = full(
    "ipma",
    wide ? 1 : 0,
    wideIndex ? 1 : 0,
    int(items.length, 4),
    ...items.map(({ item, properties }) =>
      Buffer.concat([
        id(item.id),
        int(properties.length, 1),
        ...properties.map((a) => int((a.essential ? essential : 0) + a.index, wideIndex ? 2 : 1)),
      ]),
    ),
  );
  const iprp = box("iprp", box("ipco", ...image.properties), ipma);
  // iloc version 0 (2 when IDs need 4 bytes, with its construction method 0): offsets and
  // lengths of 4 bytes, no base offset, one extent an item.
  const iloc = (firstOffset: number): Buffer => {
    let offset = firstOffset;
    const entries = items.map(({ item, length }) => {
      const entry = Buffer.concat([
        id(item.id),
        ...(wide ? [int(0, 2)] : []),
        int(0, 2),
        int(1, 2),
        int(offset, 4),
        int(length, 4),
      ]);
      offset += length;
      return entry;
    });
    return full("iloc", wide ? 2 : 0, 0, Buffer.from([0x44, 0x00]), id(items.length), ...entries);
  };
  const meta = (first: number) => full("meta", 0, 0, hdlr, pitm, iloc(first), iinf, ...iref, iprp);
  const total = items.reduce((n, { length }) => n + length, 0);
  const first = ftyp.length + meta(0).length + 8;
  if (first + total > 0xffffffff) throw new RangeError("more than 4 GB");
  return Buffer.concat([ftyp, meta(first), int(8 + total, 4), Buffer.from("mdat", "latin1")]);
}
