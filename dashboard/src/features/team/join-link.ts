/**
 * Invitation links: `/dashboard/#/join/{token}` (admin.yaml, createInvitation). The token lives
 * in the URL's fragment, which browsers never send to a server; the join screen sends it in a
 * request body. Once used, it is taken out of the address bar and the history entry.
 */
const JOIN = /^#\/join\/([A-Za-z0-9_-]{1,64})$/;

/** The token of the invitation link this page was opened with, or null. */
export function joinTokenOf(hash: string): string | null {
  return JOIN.exec(hash)?.[1] ?? null;
}

/** Forgets the link: the address bar keeps the path, without the fragment. */
export function forgetJoinLink(): void {
  history.replaceState(history.state, "", location.pathname + location.search);
}
