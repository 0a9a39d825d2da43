import { EXTENSION_OF, type ImageType } from "./image-type.js";

/** The longest name kept, extension included (admin.yaml `Media.name`: 120). */
const MAX_NAME = 120;

/**
 * The file name an image's URL ends with (admin.yaml `uploadMedia`'s `name`): the last path
 * segment, lower case, accents dropped, every run of other characters than letters, digits, `.`,
 * `_` and `-` made one `-`, and the extension of the type the bytes are. `My Photo.JPG` →
 * `my-photo.jpg`; a name with nothing left is `image.<ext>`.
 */
export function mediaNameOf(given: string, type: ImageType): string {
  const last = given.split(/[/\\]/).pop() ?? "";
  const stem = last
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\.[a-z0-9]{1,5}$/, "")
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .replace(/[-.]+$/, "");
  const ext = `.${EXTENSION_OF[type]}`;
  const kept = stem.slice(0, MAX_NAME - ext.length).replace(/[-.]+$/, "");
  return `${kept === "" ? "image" : kept}${ext}`;
}
