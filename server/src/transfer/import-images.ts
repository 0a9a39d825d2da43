/**
 * Images an import finds beside its source (README, "Import and export"): a Markdown file's
 * relative images, the files of Ghost's `content/images` (`--media-dir`), an export's media folder.
 * A reader names each one it meets by `add`, which gives back a token, an absolute URL standing
 * for the image until it is in the library (attach-images.ts puts it there and writes its URL in
 * the token's place); `check` then looks at every file once:
 * - a path that leaves the folder (`../../etc/passwd`, an absolute path, a symbolic link out of
 *   it) is a problem, as is a file whose first bytes are no image type the library takes (the
 *   upload's own rule, media/image-type.ts): nothing is imported;
 * - a file that is not there is `missing`: the reader keeps what the source said and notes it.
 * The same file named twice is one image (the first alt text given wins).
 */
import { open, realpath } from "node:fs/promises";
import path from "node:path";
import { imageTypeOf, SNIFF_BYTES } from "../media/image-type.js";
import type { ImportProblem } from "./import-set.js";

export interface ImportImage {
  /** What the set's blogs say in place of the image's URL until it is in the library. */
  readonly token: string;
  /** The file, an absolute path. */
  readonly file: string;
  /** The library name asked for (media/media-name.ts makes it the URL's last segment). */
  readonly name: string;
  readonly alt: string;
  /** Where the source first names it, for messages: `notes/a.md`, `posts[3] "slug"`. */
  readonly origin: string;
  /** An image of a Pressroom export: its record's id, name and upload hash in the exported library. */
  readonly exported?:
    | { readonly id: string; readonly name: string; readonly sha256: string }
    | undefined;
}

const TOKEN_BASE = "https://pressroom-import.invalid/image/";
/** Every token in a text. */
export const TOKENS = /https:\/\/pressroom-import\.invalid\/image\/\d+/g;

/** `text` with each token replaced by `urlOf(token)` (itself when undefined). */
export function replaceTokens(text: string, urlOf: (token: string) => string | undefined): string {
  return text.replace(TOKENS, (token) => urlOf(token) ?? token);
}

/** A reference's path as a file path: `%20` decoded, no query or fragment; undefined if not one. */
export function localPathOf(src: string): string | undefined {
  // A scheme (http:, data:, mailto:), a site path (/x) or another host (//x) is not beside the file.
  if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith("/") || src.startsWith("#")) {
    return undefined;
  }
  const bare = src.replace(/[?#].*$/, "");
  if (bare === "") return undefined;
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

interface Named {
  readonly token: string;
  readonly relative: string;
  readonly alt: string;
  readonly origin: string;
  readonly exported?: ImportImage["exported"];
}

/** What `check` found of a file named by its path: its token, or that it is not there. */
export type ResolvedImage = { readonly token: string } | { readonly missing: string };

export interface CheckedImages {
  readonly images: ImportImage[];
  /** Tokens of files that are not there, with the path as the source gave it. */
  readonly missing: ReadonlyMap<string, string>;
  readonly problems: ImportProblem[];
}

/** A collector of the images under `root`, the folder the source's paths are relative to. */
export function imageCollector(root: string) {
  const byPath = new Map<string, Named>();
  const escaping: ImportProblem[] = [];
  const found = new Set<string>();
  let next = 0;
  const normalOf = (relative: string) => path.posix.normalize(relative.replaceAll("\\", "/"));
  return {
    /**
     * The token of the file at `relative` (a `/` path from `root`), named by `origin` with `alt`;
     * undefined (and a problem) when the path leaves `root`.
     */
    add(
      relative: string,
      alt: string,
      origin: string,
      exported?: ImportImage["exported"],
    ): string | undefined {
      const normal = normalOf(relative);
      if (normal.startsWith("../") || normal === ".." || path.posix.isAbsolute(normal)) {
        escaping.push({
          where: origin,
          message: `image "${relative}" is outside the folder imported from; not read.`,
        });
        return undefined;
      }
      const known = byPath.get(normal);
      if (known !== undefined) return known.token;
      const token = `${TOKEN_BASE}${next++}`;
      byPath.set(normal, { token, relative: normal, alt, origin, exported });
      return token;
    },

    /** After `check`: the file at `relative` as found, or undefined when never added or refused. */
    resolved(relative: string): ResolvedImage | undefined {
      const named = byPath.get(normalOf(relative));
      if (named === undefined) return undefined;
      if (found.has(named.token)) return { token: named.token };
      return { missing: named.relative };
    },

    /** Every file named, checked once (see the header). */
    async check(): Promise<CheckedImages> {
      const images: ImportImage[] = [];
      const missing = new Map<string, string>();
      const problems = [...escaping];
      let realRoot: string | undefined;
      try {
        realRoot = await realpath(root);
      } catch {
        realRoot = undefined;
      }
      for (const named of byPath.values()) {
        const file = path.join(root, named.relative);
        let real: string;
        try {
          real = await realpath(file);
        } catch {
          missing.set(named.token, named.relative);
          continue;
        }
        const problem = (message: string) =>
          problems.push({ where: named.origin, message: `image "${named.relative}" ${message}` });
        if (realRoot === undefined || !real.startsWith(`${realRoot}${path.sep}`)) {
          problem("leads outside the folder imported from (a symbolic link); not read.");
          continue;
        }
        const head = await firstBytes(real);
        if (head === undefined) {
          problem("is not a file that can be read.");
          continue;
        }
        if (imageTypeOf(head) === undefined) {
          problem("is not an image Pressroom takes: JPEG, PNG, WebP, AVIF or GIF.");
          continue;
        }
        found.add(named.token);
        images.push({
          token: named.token,
          file: real,
          name: named.exported?.name ?? path.posix.basename(named.relative),
          alt: named.alt,
          origin: named.origin,
          exported: named.exported,
        });
      }
      return { images, missing, problems };
    },
  };
}

export type ImageCollector = ReturnType<typeof imageCollector>;

/** A regular file's first bytes, or undefined for a folder or a file that cannot be read. */
async function firstBytes(file: string): Promise<Uint8Array | undefined> {
  try {
    const handle = await open(file, "r");
    try {
      if (!(await handle.stat()).isFile()) return undefined;
      const head = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
