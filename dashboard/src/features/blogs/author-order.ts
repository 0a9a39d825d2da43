import type { Author } from "../../api.js";
import type { AuthorRef } from "./blog-draft.js";

// The order of a blog's authors (admin.yaml, BlogInput.authors: ordered, the first is the
// primary author, each once): what the editor's picker does to it. No state, no DOM.

/** What a picker's buttons do to one chosen author. */
export type AuthorMove = "up" | "down" | "remove";

/**
 * `chosen` with the author `id` moved one place up or down, or removed. The same array (no
 * change) when the move goes nowhere: the first up, the last down, an author not chosen.
 */
export function moveAuthor(chosen: AuthorRef[], id: string, move: AuthorMove): AuthorRef[] {
  const at = chosen.findIndex((a) => a.id === id);
  if (at < 0) return chosen;
  if (move === "remove") return chosen.filter((a) => a.id !== id);
  const to = move === "up" ? at - 1 : at + 1;
  if (to < 0 || to >= chosen.length) return chosen;
  const moved = [...chosen];
  [moved[at], moved[to]] = [moved[to] as AuthorRef, moved[at] as AuthorRef];
  return moved;
}

/** `chosen` with `author` last (only its ID and name: what the form keeps); once only. */
export const addAuthor = (chosen: AuthorRef[], author: AuthorRef): AuthorRef[] =>
  chosen.some((a) => a.id === author.id)
    ? chosen
    : [...chosen, { id: author.id, name: author.name }];

/** The workspace's authors not chosen yet, in the list's order (by name). */
export const choosableAuthors = (all: readonly Author[], chosen: readonly AuthorRef[]): Author[] =>
  all.filter((a) => !chosen.some((c) => c.id === a.id));

/** Names by ID: the workspace's authors and those the blog names (a history's revisions). */
export function authorNamesOf(...lists: (readonly AuthorRef[] | null | undefined)[]) {
  const names = new Map<string, string>();
  for (const list of lists) for (const a of list ?? []) names.set(a.id, a.name);
  return names;
}
