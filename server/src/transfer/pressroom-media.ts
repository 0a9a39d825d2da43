/**
 * A Pressroom export's images (README, "Import and export"): its `media` records (admin.yaml
 * `ExportedMedia`) and the files `pressroom export` wrote in its media folder, `{id}-{name}`
 * (export-media.ts). Each record whose file is there is one of the set's images
 * (import-images.ts), keeping its name and alt text, and every URL of a blog naming its ID — a
 * library URL on any origin, `…/api/consumer/media/{id}/{name}`, in the body, the cover or the
 * social image, a copy's query kept — names its token instead, so the import points it at the
 * image in the target library. A record whose file is missing is a note, and its URLs are left
 * as they are (they still load from the exported server while that has it).
 */
import path from "node:path";
import { imageCollector } from "./import-images.js";
import type { ImportBlog, ImportProblem, ImportSet } from "./import-set.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const ID = /^med_[A-Za-z0-9]{1,60}$/;
const NAME = /^[a-z0-9][a-z0-9._-]{0,119}$/;
const SHA256 = /^[0-9a-f]{64}$/;
/**
 * A library URL: an origin and any path before the one of media-url.ts (a server behind a path),
 * then that path; a copy's query after it is left where it is.
 */
const LIBRARY_URL =
  /https?:\/\/[^\s"'<>()]*?\/api\/consumer\/media\/(med_[A-Za-z0-9]{1,60})\/([a-z0-9][a-z0-9._-]{0,119})/g;

/** The file of an exported image in the export's media folder. */
export const exportedFileName = (record: { id: string; name: string }): string =>
  `${record.id}-${record.name}`;

/** The media folder `pressroom export --out FILE` writes by default: `FILE` less `.json`, `-media`. */
export function mediaFolderOf(exportFile: string): string {
  const base = path.basename(exportFile).replace(/\.json$/i, "");
  return path.join(path.dirname(exportFile), `${base}-media`);
}

/** The export's records, checked; each problem pushed, located `media[i]`. */
function recordsOf(raw: unknown, problems: ImportProblem[]) {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push({ where: "media", message: "must be a list." });
    return [];
  }
  return raw.flatMap((item: unknown, i) => {
    const ok =
      isObject(item) &&
      typeof item.id === "string" &&
      ID.test(item.id) &&
      typeof item.name === "string" &&
      NAME.test(item.name) &&
      typeof item.alt === "string" &&
      typeof item.sha256 === "string" &&
      SHA256.test(item.sha256);
    if (!ok) {
      problems.push({
        where: `media[${i}]`,
        message: `must be an image record: "id" (med_…), "name", "alt", "sha256" (admin.yaml ExportedMedia).`,
      });
      return [];
    }
    const { id, name, alt, sha256 } = item as {
      id: string;
      name: string;
      alt: string;
      sha256: string;
    };
    return [{ id, name, alt, sha256, where: `media[${i}]` }];
  });
}

/**
 * `set` (read from `doc` by pressroom-format.ts) with the export's images from `mediaDir`; the
 * problems of the records or files throw as the reader's do, by `fail`.
 */
export async function withExportedMedia(
  doc: Json,
  set: ImportSet,
  mediaDir: string,
  fail: (problems: ImportProblem[]) => never,
): Promise<ImportSet> {
  const problems: ImportProblem[] = [];
  const records = recordsOf(doc.media, problems);
  if (problems.length > 0) fail(problems);
  if (records.length === 0) return set;
  const images = imageCollector(mediaDir);
  const tokenOf = new Map<string, string>();
  for (const r of records) {
    const token = images.add(exportedFileName(r), r.alt, r.where, {
      id: r.id,
      name: r.name,
      sha256: r.sha256,
    });
    if (token !== undefined) tokenOf.set(r.id, token);
  }
  const checked = await images.check();
  if (checked.problems.length > 0) fail(checked.problems);
  const found = new Map<string, string>();
  for (const [id, token] of tokenOf) if (!checked.missing.has(token)) found.set(id, token);
  const nameOf = new Map(records.map((r) => [r.id, r.name]));
  // The record's name ends the URL: what follows it (a sentence's full stop) stays after it.
  const relink = (text: string): string =>
    text.replace(LIBRARY_URL, (url, id: string, name: string) => {
      const token = found.get(id);
      const own = nameOf.get(id) ?? "";
      return token === undefined || !name.startsWith(own)
        ? url
        : `${token}${name.slice(own.length)}`;
    });
  const relinkOrNull = (text: string | null): string | null =>
    text === null ? null : relink(text);
  const blogs = set.blogs.map(
    (b): ImportBlog => ({
      ...b,
      bodyMarkdown: relink(b.bodyMarkdown),
      coverImageUrl: relinkOrNull(b.coverImageUrl),
      socialImageUrl: relinkOrNull(b.socialImageUrl),
    }),
  );
  const missing = records.length - found.size;
  const notes = [
    ...set.notes,
    `${found.size} of the export's ${records.length} image(s) read from ${mediaDir}, for the library.`,
    ...(missing === 0
      ? []
      : [
          `${missing} image(s) have no file in ${mediaDir} (${records
            .filter((r) => !found.has(r.id))
            .slice(0, 5)
            .map((r) => exportedFileName(r))
            .join(", ")}${missing > 5 ? ", …" : ""}): their blogs' URLs are left as exported.`,
        ]),
  ];
  return { ...set, blogs, notes, images: checked.images };
}
