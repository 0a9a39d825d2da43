import { AsyncLocalStorage } from "node:async_hooks";

/** The access token a request acts with (admin.yaml, the AccessToken scheme). */
export interface ActingToken {
  /** Its public id (`tok_…`), never its secret. */
  readonly id: string;
  /** Its name when it was used, as its owner named it. */
  readonly name: string;
}

/**
 * Which access token the work in progress was asked for by, if any: the audit log records it
 * beside the user (README, "Access tokens"). Carried by the request's async context rather than
 * passed down, since an audited action is recorded deep in the stores (a key's mint, a member's
 * removal), whose callers — the CLI, the server's own sweeps, requests with a session — act
 * with no token. admin/guards.ts `requireSession` enters it for a token's request; what follows
 * (the body's read included: test/admin/audit-log.test.ts schedules a blog) runs inside it.
 */
const acting = new AsyncLocalStorage<ActingToken>();

export const actAsToken = <T>(token: ActingToken, work: () => T): T => acting.run(token, work);

/** The token the current request acts with; undefined for a session, the CLI, the server. */
export const actingToken = (): ActingToken | undefined => acting.getStore();
