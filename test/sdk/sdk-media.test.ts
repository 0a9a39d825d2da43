import { describe, expect, it } from "vitest";
import {
  IMAGE_WIDTHS,
  type ImageUrlOptions,
  type ImageWidth,
  imageUrl,
  type operations,
  srcset,
} from "../../sdk/src/index.js";

/**
 * `imageUrl` and `srcset` (sdk/README.md, "Images") build the URLs of openapi.yaml's
 * `getMediaFile`: the spec's sets, typed and checked at run time, one query order, and an srcset
 * that never claims a width the server would not make. The packed package: sdk-media-package.test.ts.
 */

const PATH = "/api/consumer/media/med_7KcXw2Qm9TfL3pZa/spring-cover.jpg";
const ABSOLUTE = `https://pressroom.example.com${PATH}`;

/** A value the types refuse, passed as JavaScript code could pass it. */
const untyped = <T>(value: unknown): T => value as T;

describe("imageUrl", () => {
  it("returns the URL as given without options, relative or absolute", () => {
    expect(imageUrl(PATH)).toBe(PATH);
    expect(imageUrl(ABSOLUTE)).toBe(ABSOLUTE);
    expect(imageUrl({ url: ABSOLUTE, width: 1200 })).toBe(ABSOLUTE);
    expect(imageUrl("media/med_a1/x.png")).toBe("media/med_a1/x.png");
  });

  it("writes the query in the spec's order whatever the options' order", () => {
    const all: ImageUrlOptions = { q: 75, fm: "avif", fit: "cover", h: 480, w: 640 };
    expect(imageUrl(PATH, all)).toBe(`${PATH}?w=640&h=480&fit=cover&fm=avif&q=75`);
    expect(imageUrl(ABSOLUTE, { fm: "webp", w: 320 })).toBe(`${ABSOLUTE}?w=320&fm=webp`);
    expect(imageUrl(PATH, { w: undefined, fm: "png" })).toBe(`${PATH}?fm=png`);
    expect(imageUrl(PATH, {})).toBe(PATH);
  });

  it("merges the URL's own query, options first, and keeps a fragment last", () => {
    expect(imageUrl(`${PATH}?q=60&fm=png`, { w: 320, fm: "webp" })).toBe(
      `${PATH}?w=320&fm=webp&q=60`,
    );
    expect(imageUrl(imageUrl(PATH, { fm: "jpeg" }), { w: 64 })).toBe(`${PATH}?w=64&fm=jpeg`);
    expect(imageUrl(`${PATH}#top`, { w: 64 })).toBe(`${PATH}?w=64#top`);
    expect(imageUrl(`${PATH}?`)).toBe(PATH);
  });

  it("accepts every value of the spec's sets", () => {
    for (const w of IMAGE_WIDTHS) expect(imageUrl(PATH, { w, h: w })).toBe(`${PATH}?w=${w}&h=${w}`);
    for (const fit of ["inside", "cover", "contain"] as const) {
      expect(imageUrl(PATH, { fit })).toBe(`${PATH}?fit=${fit}`);
    }
    for (const fm of ["webp", "avif", "jpeg", "png"] as const) {
      expect(imageUrl(PATH, { fm })).toBe(`${PATH}?fm=${fm}`);
    }
    for (const q of [40, 50, 60, 70, 75, 80, 85, 90, 100] as const) {
      expect(imageUrl(PATH, { q })).toBe(`${PATH}?q=${q}`);
    }
  });

  it("throws a TypeError naming the allowed values for a value outside a set", () => {
    expect(() => imageUrl(PATH, { w: untyped(300) })).toThrow(
      new TypeError(
        "imageUrl: w must be one of 64, 128, 256, 320, 480, 640, 768, 960, 1024, 1280, 1536, 1920, 2560; got 300.",
      ),
    );
    expect(() => imageUrl(PATH, { w: untyped("320") })).toThrow(/w must be one of .*; got "320"\./);
    expect(() => imageUrl(PATH, { h: untyped(4096) })).toThrow(/h must be one of 64, /);
    expect(() => imageUrl(PATH, { fit: untyped("fill") })).toThrow(
      new TypeError('imageUrl: fit must be one of inside, cover, contain; got "fill".'),
    );
    expect(() => imageUrl(PATH, { fm: untyped("gif") })).toThrow(
      new TypeError('imageUrl: fm must be one of webp, avif, jpeg, png; got "gif".'),
    );
    expect(() => imageUrl(PATH, { q: untyped(33) })).toThrow(
      new TypeError("imageUrl: q must be one of 40, 50, 60, 70, 75, 80, 85, 90, 100; got 33."),
    );
    expect(() => imageUrl(PATH, { q: untyped(null) })).toThrow(TypeError);
    expect(() => imageUrl(`${PATH}?w=100`)).toThrow(/w must be one of .*; got 100\./);
    expect(() => imageUrl(`${PATH}?w=64.0`)).toThrow(/got "64\.0"/);
  });

  it("throws for options it does not know and for options that are not an object", () => {
    expect(() => imageUrl(PATH, untyped({ width: 320 }))).toThrow(
      new TypeError('imageUrl: unknown option "width" (it takes w, h, fit, fm, q).'),
    );
    expect(() => imageUrl(PATH, untyped(320))).toThrow(
      new TypeError("imageUrl: options must be an object."),
    );
    expect(() => imageUrl(PATH, untyped(null))).toThrow(TypeError);
  });

  it("refuses a URL that is not a Pressroom image URL", () => {
    const refused = [
      "",
      "/api/consumer/blogs/b_7KcXw2Qm9TfL3pZa",
      "/api/consumer/media/med_7KcXw2Qm9TfL3pZa", // no name
      "/api/consumer/media/7KcXw2Qm9TfL3pZa/cover.jpg", // not a media ID
      "/api/consumer/media/med_a1/Cover.JPG", // not a name the API gives
      "/api/consumer/media/med_a1/cover.jpg/", // not the path's end
      "/api/consumer/mediaX/med_a1/cover.jpg",
      `/api/consumer/media/med_${"a".repeat(61)}/cover.jpg`, // ID over 64 characters
      `/api/consumer/media/med_a1/${"a".repeat(117)}.jpg`, // name over 120 characters
      "javascript:alert(1)//media/med_a1/cover.jpg",
      "data:image/png,//media/med_a1/cover.jpg",
      "https://pressroom.example.com/api/consumer/media/med_a1/co ver.jpg",
      "https://pressroom.example.com/api/consumer/media/med_a1/cover.jpg\n",
      "http://[::1/media/med_a1/cover.jpg",
    ];
    for (const url of refused) {
      expect(() => imageUrl(url), url).toThrow(
        new TypeError(
          `imageUrl: ${JSON.stringify(url)} is not a Pressroom image URL (http(s) or a path, ending in /media/{mediaId}/{name} as the API's url gives it).`,
        ),
      );
    }
    expect(imageUrl(`/api/consumer/media/med_${"a".repeat(60)}/${"a".repeat(116)}.jpg`)).toMatch(
      /\.jpg$/,
    );
    // A proxy or a CDN that keeps the path's end is fine.
    expect(imageUrl("https://cdn.example.net/images/media/med_a1/cover.jpg", { w: 64 })).toBe(
      "https://cdn.example.net/images/media/med_a1/cover.jpg?w=64",
    );
    expect(imageUrl("//cdn.example.net/media/med_a1/cover.jpg")).toBe(
      "//cdn.example.net/media/med_a1/cover.jpg",
    );
  });

  it("refuses query parameters the API refuses, and a parameter given twice", () => {
    expect(() => imageUrl(`${PATH}?x=1`)).toThrow(
      new TypeError(
        `imageUrl: "${PATH}?x=1" has the query parameter "x", which the API refuses (it takes w, h, fit, fm, q).`,
      ),
    );
    expect(() => imageUrl(`${PATH}?w=64&w=128`)).toThrow(
      new TypeError(`imageUrl: "${PATH}?w=64&w=128" has w twice.`),
    );
  });

  it("refuses an image that is neither a URL nor an object with one", () => {
    const message = "imageUrl: image must be a URL string or an object with a string url.";
    expect(() => imageUrl(untyped(null))).toThrow(new TypeError(message));
    expect(() => imageUrl(untyped({ src: PATH }))).toThrow(new TypeError(message));
    expect(() => imageUrl(untyped(42))).toThrow(new TypeError(message));
    expect(() => imageUrl({ url: PATH, width: -1 })).toThrow(
      new TypeError("imageUrl: image.width must be a positive integer, null or absent."),
    );
    expect(imageUrl({ url: PATH, width: null })).toBe(PATH);
  });
});

describe("srcset", () => {
  const entry = (w: number, query = `w=${w}`) => `${PATH}?${query} ${w}w`;

  it("lists every width when the image's width is unknown", () => {
    expect(srcset(PATH)).toBe(IMAGE_WIDTHS.map((w) => entry(w)).join(", "));
    expect(srcset({ url: PATH, width: null })).toBe(srcset(PATH));
  });

  it("never enlarges: widths above the image's are left out, its own width is added", () => {
    expect(srcset({ url: PATH, width: 1000 }, { fm: "webp" })).toBe(
      [
        ...[64, 128, 256, 320, 480, 640, 768, 960].map((w) => entry(w, `w=${w}&fm=webp`)),
        `${PATH}?fm=webp 1000w`,
      ].join(", "),
    );
    // A width of the set is that entry, not a second one.
    expect(srcset({ url: PATH, width: 320 })).toBe(
      [64, 128, 256, 320].map((w) => entry(w)).join(", "),
    );
    // Smaller than every width: the image itself.
    expect(srcset({ url: PATH, width: 40 }, { q: 60 })).toBe(`${PATH}?q=60 40w`);
    // Larger than every width: all of them, then the original.
    expect(srcset({ url: ABSOLUTE, width: 4000 })).toBe(
      [...IMAGE_WIDTHS.map((w) => `${ABSOLUTE}?w=${w} ${w}w`), `${ABSOLUTE} 4000w`].join(", "),
    );
  });

  it("carries fm and q in every candidate, merged with the URL's own", () => {
    expect(srcset({ url: `${PATH}?q=70`, width: 128 }, { fm: "avif" })).toBe(
      [entry(64, "w=64&fm=avif&q=70"), entry(128, "w=128&fm=avif&q=70")].join(", "),
    );
  });

  it("throws for widths chosen elsewhere and for values outside the sets", () => {
    expect(() => srcset(`${PATH}?w=64`)).toThrow(
      new TypeError(`srcset: "${PATH}?w=64" already has w; srcset chooses the widths.`),
    );
    expect(() => srcset(`${PATH}?fit=cover`)).toThrow(/already has fit/);
    expect(() => srcset(PATH, untyped({ w: 320 }))).toThrow(
      new TypeError('srcset: unknown option "w" (it takes fm, q).'),
    );
    expect(() => srcset(PATH, { fm: untyped("gif") })).toThrow(
      new TypeError('srcset: fm must be one of webp, avif, jpeg, png; got "gif".'),
    );
    expect(() => srcset("/api/consumer/blogs/b_1")).toThrow(/is not a Pressroom image URL/);
    expect(() => srcset({ url: PATH, width: 1.5 })).toThrow(
      new TypeError("srcset: image.width must be a positive integer, null or absent."),
    );
  });
});

describe("the types", () => {
  it("are the spec's: IMAGE_WIDTHS is getMediaFile's w, read-only", () => {
    type Query = NonNullable<operations["getMediaFile"]["parameters"]["query"]>;
    const widths: readonly NonNullable<Query["w"]>[] = IMAGE_WIDTHS;
    const width: ImageWidth = IMAGE_WIDTHS[0];
    expect([widths.length, width]).toEqual([13, 64]);
    expect(Object.isFrozen(IMAGE_WIDTHS)).toBe(true);
  });

  it("refuse values outside the sets at compile time", () => {
    // Each line is a compile error (tsc -p test); at run time each throws.
    // @ts-expect-error 300 is not a MediaWidth
    expect(() => imageUrl(PATH, { w: 300 })).toThrow(TypeError);
    // @ts-expect-error 4096 is not a MediaHeight
    expect(() => imageUrl(PATH, { h: 4096 })).toThrow(TypeError);
    // @ts-expect-error "fill" is not a MediaFit
    expect(() => imageUrl(PATH, { fit: "fill" })).toThrow(TypeError);
    // @ts-expect-error "gif" is not a MediaFormat
    expect(() => imageUrl(PATH, { fm: "gif" })).toThrow(TypeError);
    // @ts-expect-error 95 is not a MediaQuality
    expect(() => imageUrl(PATH, { q: 95 })).toThrow(TypeError);
    // @ts-expect-error getMediaFile has no `width`
    expect(() => imageUrl(PATH, { width: 320 })).toThrow(TypeError);
    // @ts-expect-error srcset chooses the widths
    expect(() => srcset(PATH, { w: 320 })).toThrow(TypeError);
    // @ts-expect-error an image is a URL or has one
    expect(() => imageUrl({ src: PATH })).toThrow(TypeError);
    // @ts-expect-error IMAGE_WIDTHS is read-only
    expect(() => IMAGE_WIDTHS.push(3000)).toThrow(TypeError);
  });
});
