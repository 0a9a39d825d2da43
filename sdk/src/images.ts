import type { operations } from "./generated/consumer.js";

/** `getMediaFile`'s query, as the spec defines it (`w`, `h`, `fit`, `fm`, `q`). */
type MediaQuery = NonNullable<operations["getMediaFile"]["parameters"]["query"]>;
type MediaKey = keyof MediaQuery;

/** A width (or height) a library image's URL takes: the API's `MediaWidth`, in pixels. */
export type ImageWidth = NonNullable<MediaQuery["w"]>;

/**
 * The copies to ask a library image for (the API's `getMediaFile` query): `w` and `h` bound the
 * size (one of {@link IMAGE_WIDTHS}; never enlarged), `fit` how both bounds are met (`inside`,
 * `cover`, `contain`), `fm` the format (`webp`, `avif`, `jpeg`, `png`), `q` the quality of a lossy
 * format (40, 50, 60, 70, 75, 80, 85, 90 or 100).
 */
export type ImageUrlOptions = {
  readonly [K in MediaKey]?: NonNullable<MediaQuery[K]> | undefined;
};

/** `srcset`'s options: the format and quality of every width (the widths are its own choice). */
export type SrcsetOptions = Pick<ImageUrlOptions, "fm" | "q">;

/**
 * A library image: its URL (as the API gives it, absolute or a path), or an object with `url`
 * and, when known, the image's own `width` in pixels — a `Blog`'s cover image, an admin `Media`.
 */
export type ImageSource =
  | string
  | { readonly url: string; readonly width?: number | null | undefined };

/**
 * The widths (and heights) a library image's URL takes, ascending: the API's `MediaWidth`. Frozen,
 * so no caller can change the set the SDK checks against.
 */
export const IMAGE_WIDTHS = /*#__PURE__*/ Object.freeze([
  64, 128, 256, 320, 480, 640, 768, 960, 1024, 1280, 1536, 1920, 2560,
] as const satisfies readonly ImageWidth[]);

const FITS = ["inside", "cover", "contain"] as const satisfies readonly NonNullable<
  MediaQuery["fit"]
>[];
const FORMATS = ["webp", "avif", "jpeg", "png"] as const satisfies readonly NonNullable<
  MediaQuery["fm"]
>[];
const QUALITIES = [40, 50, 60, 70, 75, 80, 85, 90, 100] as const satisfies readonly NonNullable<
  MediaQuery["q"]
>[];

/** The query's parameters in the order they are written: the spec's. */
const KEYS = ["w", "h", "fit", "fm", "q"] as const satisfies readonly MediaKey[];

/** What each parameter takes, at run time (for callers without types). */
const ALLOWED: { readonly [K in MediaKey]: readonly NonNullable<MediaQuery[K]>[] } = {
  w: IMAGE_WIDTHS,
  h: IMAGE_WIDTHS,
  fit: FITS,
  fm: FORMATS,
  q: QUALITIES,
};

// Fail to compile when the spec's query or one of its sets changes and these lists do not.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const listsMatchTheSpec: [
  Same<(typeof KEYS)[number], MediaKey>,
  Same<(typeof IMAGE_WIDTHS)[number], ImageWidth>,
  Same<NonNullable<MediaQuery["h"]>, ImageWidth>,
  Same<(typeof FITS)[number], NonNullable<MediaQuery["fit"]>>,
  Same<(typeof FORMATS)[number], NonNullable<MediaQuery["fm"]>>,
  Same<(typeof QUALITIES)[number], NonNullable<MediaQuery["q"]>>,
] = [true, true, true, true, true, true];
void listsMatchTheSpec;

type Query = { [K in MediaKey]?: NonNullable<MediaQuery[K]> };

/** A media URL taken apart: everything before the query, the query, and the fragment. */
interface MediaUrl {
  readonly base: string;
  readonly query: Query;
  readonly fragment: string;
}

/**
 * The path's end `getMediaFile` serves, `/media/{mediaId}/{name}`, with the spec's patterns
 * (`MediaId`: `med_…`, at most 64; `MediaName`: at most 120). The prefix is not checked, so a
 * proxy or a CDN that keeps the path's end works too.
 */
const MEDIA_PATH = /(?:^|\/)media\/(med_[A-Za-z0-9]+)\/([a-z0-9][a-z0-9._-]*)$/;

const show = (value: unknown): string =>
  typeof value === "string" ? JSON.stringify(value) : String(value);

function checked<K extends MediaKey>(
  fn: string,
  key: K,
  value: unknown,
): NonNullable<MediaQuery[K]> {
  const allowed = ALLOWED[key] as readonly unknown[];
  if (!allowed.includes(value)) {
    throw new TypeError(`${fn}: ${key} must be one of ${allowed.join(", ")}; got ${show(value)}.`);
  }
  return value as NonNullable<MediaQuery[K]>;
}

function sourceOf(fn: string, image: ImageSource): { url: string; width: number | undefined } {
  if (typeof image === "string") return { url: image, width: undefined };
  if (typeof image !== "object" || image === null || typeof image.url !== "string") {
    throw new TypeError(`${fn}: image must be a URL string or an object with a string url.`);
  }
  const { width } = image;
  if (width === undefined || width === null) return { url: image.url, width: undefined };
  if (!Number.isInteger(width) || width <= 0) {
    throw new TypeError(`${fn}: image.width must be a positive integer, null or absent.`);
  }
  return { url: image.url, width };
}

function parseMediaUrl(fn: string, url: string): MediaUrl {
  const notMedia = () =>
    new TypeError(
      `${fn}: ${show(url)} is not a Pressroom image URL (http(s) or a path, ending in ` +
        "/media/{mediaId}/{name} as the API's url gives it).",
    );
  // White space or control characters would break an srcset, and no API url has them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (url === "" || /[\s\u0000-\u001f\u007f]/.test(url)) throw notMedia();
  const hash = url.indexOf("#");
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? "" : url.slice(hash);
  const mark = beforeHash.indexOf("?");
  const base = mark === -1 ? beforeHash : beforeHash.slice(0, mark);
  const search = mark === -1 ? "" : beforeHash.slice(mark + 1);

  let parsed: URL;
  try {
    parsed = new URL(base, "http://relative.invalid/");
  } catch {
    throw notMedia();
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw notMedia();
  const segments = MEDIA_PATH.exec(parsed.pathname);
  if (segments === null) throw notMedia();
  const [, id = "", name = ""] = segments;
  if (id.length > 64 || name.length > 120) throw notMedia();

  const query: Query = {};
  // forEach, not for…of: the SDK's lib has no DOM.Iterable.
  new URLSearchParams(search).forEach((raw, key) => {
    if (!(KEYS as readonly string[]).includes(key)) {
      throw new TypeError(
        `${fn}: ${show(url)} has the query parameter ${show(key)}, which the API refuses ` +
          `(it takes ${KEYS.join(", ")}).`,
      );
    }
    const k = key as MediaKey;
    if (query[k] !== undefined) throw new TypeError(`${fn}: ${show(url)} has ${key} twice.`);
    const value = k === "fit" || k === "fm" ? raw : /^[0-9]{1,5}$/.test(raw) ? Number(raw) : raw;
    (query as Record<MediaKey, unknown>)[k] = checked(fn, k, value);
  });
  return { base, query, fragment };
}

function optionsOf(fn: string, options: unknown, keys: readonly MediaKey[]): Query {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`${fn}: options must be an object.`);
  }
  const query: Query = {};
  for (const [key, value] of Object.entries(options)) {
    if (!(keys as readonly string[]).includes(key)) {
      throw new TypeError(`${fn}: unknown option ${show(key)} (it takes ${keys.join(", ")}).`);
    }
    if (value === undefined) continue;
    const k = key as MediaKey;
    (query as Record<MediaKey, unknown>)[k] = checked(fn, k, value);
  }
  return query;
}

function format({ base, query, fragment }: MediaUrl): string {
  const pairs = KEYS.filter((key) => query[key] !== undefined).map((key) => `${key}=${query[key]}`);
  return `${base}${pairs.length === 0 ? "" : `?${pairs.join("&")}`}${fragment}`;
}

/**
 * The URL of a library image with the copy `options` ask for, as the API's `getMediaFile` takes
 * it: the URL as given (absolute stays absolute, a path stays a path) with its query written in
 * one order (`w`, `h`, `fit`, `fm`, `q`), so the same copy is always the same URL and one cache
 * entry everywhere. Options override what the URL's query already says.
 *
 * @throws TypeError when the URL does not end in `/media/{mediaId}/{name}` (or is not http(s) or a
 *   path), when its query has a parameter the API refuses, or when a value is not one the API
 *   takes (the message lists those it does).
 *
 * @example imageUrl(blog.coverImage, { w: 640, fm: "webp" })
 *   // "https://pressroom.example.com/api/consumer/media/med_…/cover.jpg?w=640&fm=webp"
 */
export function imageUrl(image: ImageSource, options?: ImageUrlOptions): string {
  const { url } = sourceOf("imageUrl", image);
  const parsed = parseMediaUrl("imageUrl", url);
  const chosen = optionsOf("imageUrl", options, KEYS);
  return format({ ...parsed, query: { ...parsed.query, ...chosen } });
}

/**
 * An `srcset` for a library image: one URL per width of {@link IMAGE_WIDTHS} (`…?w=320 320w`),
 * each with `options`' format and quality. With the image's own `width`, never larger than the
 * image (the API never enlarges one): widths above it are left out, and when it is not one of the
 * set, the image at its own size (the URL without `w`) is added as the last candidate. Without a
 * `width`, every width is listed. Pair it with a `sizes` attribute of your own.
 *
 * @throws TypeError as {@link imageUrl} does, and when the URL's query already has `w`, `h` or
 *   `fit` (the widths are srcset's choice).
 *
 * @example srcset({ url, width: 1000 }, { fm: "webp" })
 *   // "…?w=64&fm=webp 64w, …, …?w=960&fm=webp 960w, …?fm=webp 1000w"
 */
export function srcset(image: ImageSource, options?: SrcsetOptions): string {
  const { url, width } = sourceOf("srcset", image);
  const parsed = parseMediaUrl("srcset", url);
  for (const key of ["w", "h", "fit"] as const) {
    if (parsed.query[key] !== undefined) {
      throw new TypeError(`srcset: ${show(url)} already has ${key}; srcset chooses the widths.`);
    }
  }
  const chosen = { ...parsed.query, ...optionsOf("srcset", options, ["fm", "q"]) };
  const widths = IMAGE_WIDTHS.filter((w) => width === undefined || w <= width);
  const candidates = widths.map((w) => `${format({ ...parsed, query: { ...chosen, w } })} ${w}w`);
  if (width !== undefined && !(IMAGE_WIDTHS as readonly number[]).includes(width)) {
    candidates.push(`${format({ ...parsed, query: chosen })} ${width}w`);
  }
  return candidates.join(", ");
}
