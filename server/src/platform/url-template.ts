import { invalid } from "./domain-error.js";

/**
 * The rules a workspace's URL template shares with the others (the preview URL, the feeds' link
 * template): once its placeholders are filled (`sample`), an absolute http(s) URL, with no user
 * name or password (they would travel to everyone it is handed to) and no fragment in the
 * template. `noun` names it in each message ("A preview URL"), `fragmentWhy` says why a
 * fragment is refused. What is particular to each (its placeholders) is checked by its owner.
 */
export function checkUrlTemplate(
  template: string,
  sample: string,
  noun: string,
  fragmentWhy: string,
): void {
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    throw invalid(`${noun} must be an absolute http:// or https:// URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`${noun} must be an absolute http:// or https:// URL.`);
  }
  if (url.username !== "" || url.password !== "") {
    throw invalid(`${noun} must not contain a user name or password.`);
  }
  if (template.includes("#")) throw invalid(`${noun} must not have a fragment (#…)${fragmentWhy}.`);
}
