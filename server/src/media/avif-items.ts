/**
 * What of an AVIF's `meta` box is kept (HEIF ISO/IEC 23008-12 §9, ISO/IEC 14496-12 §8.11;
 * AVIF https://aomediacodec.github.io/av1-avif/): the primary item when it is one AV1 image,
 * its alpha (an `auxl` item whose `auxC` says alpha), the properties of both that describe or
 * place their pixels, their data's extents in the file, and the references between them. The
 * rest (EXIF and XMP items, thumbnails, depth and gain maps, names, groups, other properties)
 * is not. A `meta` whose image is something else (a grid, data in `idat` or elsewhere,
 * protected, an essential property not known here) is not taken at all. avif-boxes.ts writes
 * the file anew from what this keeps (avif-header.ts); avif-decoding.ts reads the items too.
 * About 290 lines: the four boxes' readers belong with the one choice they serve.
 */
import { isKeptProperty, keptProperty } from "./avif-properties.js";
import { type Box, boxes, fullBox, uint } from "./isobmff.js";

/** An image's data in more pieces than this is not one this takes (libheif reads up to 32). */
const MAX_EXTENTS = 32;
const ALPHA_URNS = new Set([
  "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha",
  "urn:mpeg:hevc:2015:auxid:1",
]);

export interface Item {
  readonly id: number;
  readonly type: string;
  readonly hidden: boolean;
  readonly protectedBy: number;
}
/** Where part of an item's data lies in the file. */
export interface Extent {
  readonly offset: number;
  readonly length: number;
}
/** A property of an item: its 1-based index in `ipco`, and whether a reader must know it. */
export interface Association {
  readonly essential: boolean;
  readonly index: number;
}
export interface Reference {
  readonly type: string;
  readonly from: number;
  readonly to: readonly number[];
}

/** What is kept: the items in order (primary first), the properties they use, in new order. */
export interface KeptImage {
  readonly primaryId: number;
  readonly items: readonly {
    readonly item: Item;
    readonly extents: readonly Extent[];
    readonly length: number;
    readonly properties: readonly Association[];
  }[];
  /** Each written back with its defined fields alone (avif-properties.ts). */
  readonly properties: readonly Buffer[];
  readonly references: readonly Reference[];
}

/**
 * The items `iinf` lists, by id (`infe` of versions 2 and 3; others are not image items). Throws
 * a RangeError for an id listed twice, which readers may take either way.
 */
export function items(iinf: Box): Map<number, Item> {
  const found = new Map<number, Item>();
  const { version, body } = fullBox(iinf);
  for (const infe of boxes(body.subarray(version === 0 ? 2 : 4))) {
    if (infe.type !== "infe") continue;
    const entry = fullBox(infe);
    if (entry.version < 2) continue;
    const idBytes = entry.version === 2 ? 2 : 4;
    if (found.has(uint(entry.body, 0, idBytes))) throw new RangeError("an item listed twice");
    found.set(uint(entry.body, 0, idBytes), {
      id: uint(entry.body, 0, idBytes),
      protectedBy: uint(entry.body, idBytes, 2),
      type: entry.body.toString("latin1", idBytes + 2, idBytes + 6),
      hidden: (entry.flags & 1) === 1,
    });
  }
  return found;
}

/** The references `iref` lists, each of one type from one item to others, in order. */
export function references(iref: Box | undefined): Reference[] {
  if (iref === undefined) return [];
  const { version, body } = fullBox(iref);
  const idBytes = version === 0 ? 2 : 4;
  return boxes(body).map((ref) => {
    const count = uint(ref.body, idBytes, 2);
    const to = Array.from({ length: count }, (_, i) =>
      uint(ref.body, idBytes + 2 + i * idBytes, idBytes),
    );
    return { type: ref.type, from: uint(ref.body, 0, idBytes), to };
  });
}

function associations(ipma: Box): Map<number, Association[]> {
  const { version, flags, body } = fullBox(ipma);
  const idBytes = version === 0 ? 2 : 4;
  const wide = (flags & 1) === 1;
  const found = new Map<number, Association[]>();
  let at = 4;
  for (let n = uint(body, 0, 4); n > 0; n--) {
    const id = uint(body, at, idBytes);
    const count = uint(body, at + idBytes, 1);
    at += idBytes + 1;
    const list: Association[] = [];
    for (let i = 0; i < count; i++) {
      const value = uint(body, at, wide ? 2 : 1);
      const top = wide ? 0x8000 : 0x80;
      list.push({ essential: value >= top, index: value % top });
      at += wide ? 2 : 1;
    }
    found.set(id, list);
  }
  return found;
}

/** Where an item's data is: its construction method (0: the file, 1: `idat`) and extents. */
export interface Location {
  readonly method: number;
  readonly dataReference: number;
  readonly extents: readonly Extent[];
}

/**
 * Each item's location as `iloc` gives it, by id; more than MAX_EXTENTS pieces: undefined. Throws
 * a RangeError for an item located twice, or a field size other than 0, 4 or 8 bytes.
 */
export function itemLocations(iloc: Box): Map<number, Location | undefined> {
  const { version, body } = fullBox(iloc);
  const offsetSize = (body[0] ?? 0) >> 4;
  const lengthSize = (body[0] ?? 0) & 15;
  const baseSize = (body[1] ?? 0) >> 4;
  const indexSize = version === 0 ? 0 : (body[1] ?? 0) & 15;
  // 0, 4 or 8 bytes each (ISO/IEC 14496-12 §8.11.3.3). libheif reads a field of any other size
  // as 0 bytes, where reading it as its size says would place each item elsewhere than libheif.
  if (![offsetSize, lengthSize, baseSize, indexSize].every((n) => n === 0 || n === 4 || n === 8)) {
    throw new RangeError("an iloc field of a size not defined");
  }
  const idBytes = version < 2 ? 2 : 4;
  const found = new Map<number, Location | undefined>();
  let at = 2;
  const next = (size: number): number => {
    const value = uint(body, at, size);
    at += size;
    return value;
  };
  for (let n = next(idBytes); n > 0; n--) {
    const id = next(idBytes);
    const method = version === 0 ? 0 : next(2) & 15;
    const dataReference = next(2);
    const base = next(baseSize);
    const extents: Extent[] = [];
    const count = next(2);
    for (let e = count; e > 0; e--) {
      next(indexSize);
      extents.push({ offset: base + next(offsetSize), length: next(lengthSize) });
    }
    if (found.has(id)) throw new RangeError("an item located twice");
    found.set(id, count <= MAX_EXTENTS ? { method, dataReference, extents } : undefined);
  }
  return found;
}

/** Each item's extents in this file (construction method 0), or undefined for any other. */
function locations(iloc: Box): Map<number, readonly Extent[] | undefined> {
  const found = new Map<number, readonly Extent[] | undefined>();
  for (const [id, where] of itemLocations(iloc)) {
    const inFile = where !== undefined && where.method === 0 && where.dataReference === 0;
    found.set(id, inFile ? where.extents : undefined);
  }
  return found;
}

/**
 * Where the data of the `meta` box's items ends in the file: past the last byte that any item
 * placed in it (construction method 0) claims; 0 when none is. Throws a RangeError where a box
 * claims more than it holds.
 */
export function itemDataEnd(meta: Buffer): number {
  const iloc = boxes(meta).find((b) => b.type === "iloc");
  if (iloc === undefined) return 0;
  let end = 0;
  for (const extents of locations(iloc).values()) {
    for (const e of extents ?? []) end = Math.max(end, e.offset + e.length);
  }
  return end;
}

/**
 * What of the `meta` box's payload (after its version and flags) is kept, undefined when its
 * image is not one this takes; `inData` tells whether an extent lies in the file's `mdat`, and
 * `icc` is the profile libheif read (the image's, if any): the image's one `colr` profile must
 * be it, beside at most one `colr` of code points, and its alpha's `colr` are not kept (no
 * reader takes an alpha's colours: a place to hide anything). Throws a RangeError where a box
 * claims more than it holds.
 */
export function keptImage(
  meta: Buffer,
  inData: (e: Extent) => boolean,
  icc: Buffer | undefined,
): KeptImage | undefined {
  const inMeta = boxes(meta);
  const only = (within: Box[], type: string): Box | undefined => {
    const found = within.filter((b) => b.type === type);
    // A box meant to be there once, there twice, may be read otherwise by another reader.
    return found.length === 1 ? found[0] : undefined;
  };
  const [hdlr, pitm, iinf, iloc, iprp] = ["hdlr", "pitm", "iinf", "iloc", "iprp"].map((type) =>
    only(inMeta, type),
  );
  if (!hdlr || !pitm || !iinf || !iloc || !iprp) return undefined;
  if (inMeta.filter((b) => b.type === "iref").length > 1) return undefined;
  if (fullBox(hdlr).body.toString("latin1", 4, 8) !== "pict") return undefined;
  const inIprp = boxes(iprp.body);
  const ipco = only(inIprp, "ipco");
  const ipma = only(inIprp, "ipma");
  if (!ipco || !ipma) return undefined;
  // Versions of these boxes past those defined have fields this does not know.
  const newest: [Box | undefined, number][] = [
    [pitm, 1],
    [iinf, 1],
    [iloc, 2],
    [ipma, 1],
    [inMeta.find((b) => b.type === "iref"), 1],
  ];
  if (newest.some(([b, version]) => b !== undefined && fullBox(b).version > version)) {
    return undefined;
  }

  const pitmBox = fullBox(pitm);
  const primaryId = uint(pitmBox.body, 0, pitmBox.version === 0 ? 2 : 4);
  const all = items(iinf);
  const refs = references(inMeta.find((b) => b.type === "iref"));
  const properties = boxes(ipco.body);
  const propertiesOf = associations(ipma);
  const auxType = (id: number): string | undefined => {
    const auxC = (propertiesOf.get(id) ?? [])
      .map((a) => properties[a.index - 1])
      .find((p) => p?.type === "auxC");
    return auxC === undefined ? undefined : fullBox(auxC).body.toString("latin1").split("\0")[0];
  };
  const alphaId = refs.find(
    (r) =>
      r.type === "auxl" &&
      r.to.length === 1 &&
      r.to[0] === primaryId &&
      all.get(r.from)?.type === "av01" &&
      ALPHA_URNS.has(auxType(r.from) ?? ""),
  )?.from;
  const where = locations(iloc);

  // Each kept item's properties, renumbered in the new `ipco`.
  const keptProperties: number[] = [];
  const kept: KeptImage["items"][number][] = [];
  for (const id of alphaId === undefined ? [primaryId] : [primaryId, alphaId]) {
    const item = all.get(id);
    if (item === undefined || item.type !== "av01" || item.protectedBy !== 0) return undefined;
    const list: Association[] = [];
    let configured = false;
    const colours = new Set<string>();
    for (const a of propertiesOf.get(item.id) ?? []) {
      const property = properties[a.index - 1];
      if (property === undefined) return undefined;
      if (!isKeptProperty(property.type) || (property.type === "colr" && id !== primaryId)) {
        if (a.essential) return undefined;
        continue;
      }
      if (property.type === "colr") {
        const kind = property.body.toString("latin1", 0, 4);
        const profile = kind === "prof" || kind === "rICC";
        // Two profiles, or two sets of code points: readers differ in which they take.
        if (colours.has(profile ? "icc" : kind)) return undefined;
        colours.add(profile ? "icc" : kind);
        if (profile && (icc === undefined || !property.body.subarray(4).equals(icc))) {
          return undefined;
        }
      }
      if (!keptProperties.includes(a.index)) keptProperties.push(a.index);
      list.push({ essential: a.essential, index: keptProperties.indexOf(a.index) + 1 });
      if (property.type === "av1C") configured = true;
    }
    const extents = where.get(item.id);
    if (!configured || !extents?.length) return undefined;
    if (extents.some((e) => e.length === 0 || !inData(e))) return undefined;
    const length = extents.reduce((n, e) => n + e.length, 0);
    kept.push({ item, extents, length, properties: list });
  }
  // No byte of the file is written twice: extents that overlap would let a small file claim a
  // large one (the same megabytes listed a hundred times).
  const extents = kept.flatMap((k) => k.extents).sort((a, b) => a.offset - b.offset);
  if (
    extents.some(
      (e, i) => i > 0 && e.offset < (extents[i - 1]?.offset ?? 0) + (extents[i - 1]?.length ?? 0),
    )
  ) {
    return undefined;
  }
  const written: Buffer[] = [];
  for (const index of keptProperties) {
    const property = properties[index - 1] as Box;
    const clean = keptProperty(property.type, property.body);
    if (clean === undefined) return undefined;
    written.push(clean);
  }
  const isKept = (id: number) => kept.some((k) => k.item.id === id);
  return {
    primaryId,
    items: kept,
    properties: written,
    references: refs.filter(
      (r) => (r.type === "auxl" || r.type === "prem") && [r.from, ...r.to].every(isKept),
    ),
  };
}
