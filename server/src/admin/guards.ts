import { parse as parseCookie } from "cookie";
import type { CookieOptions, Request, RequestHandler, Response } from "express";
import { actAsToken } from "../platform/acting-token.js";
import type { Role } from "../platform/db/collections.js";
import { DomainError } from "../platform/domain-error.js";
import { HttpError } from "../platform/http/errors.js";
import { isLoopbackHostname } from "../platform/http/loopback.js";
import { originAt, publicOriginOf } from "../platform/http/origin.js";
import type { SessionsStore } from "../sessions/sessions-store.js";
import type { TokenGrant } from "../tokens/access-tokens-store.js";
import { hasTwoStep } from "../users/two-step-store.js";
import type { UsersStore } from "../users/users-store.js";
import { memberRole, mustBeOwner, ownerTwoStepRule } from "../workspaces/workspace-rules.js";
import type { WorkspacesStore } from "../workspaces/workspaces-store.js";

export const SESSION_COOKIE = "pressroom_session";
/** `Authorization: Bearer …`, which browsers never send by themselves. */
const BEARER = /^Bearer(?: |$)/i;

declare global {
  namespace Express {
    interface Locals {
      /** The signed-in user (admin API). */
      userId?: string;
      /** Their role in the workspace of the path (admin API). */
      role?: Role;
      /** The access token the request was made with, instead of a session (admin API). */
      accessToken?: TokenGrant;
      /** This server's public origin as the request sees it (`dashboardOrigin`; admin API). */
      publicOrigin?: string;
    }
  }
}

export const sessionTokenOf = (req: Pick<Request, "headers">): string | undefined =>
  parseCookie(req.headers.cookie ?? "")[SESSION_COOKIE];

export function setSessionCookie(
  res: Pick<Response, "cookie">,
  token: string,
  expiresAt: Date,
  secure: boolean,
) {
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "strict",
    secure,
    path: "/",
    expires: expiresAt,
  });
}

export function clearSessionCookie(
  res: { clearCookie(name: string, options: CookieOptions): unknown },
  secure: boolean,
) {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "strict", secure, path: "/" });
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const LOOPBACK_ONLY_MESSAGE =
  "The dashboard answers on loopback addresses only (localhost, 127.0.0.1, [::1]): set PUBLIC_URL to serve it at another address.";
const CROSS_ORIGIN_MESSAGE = "Cross-origin request refused.";

/**
 * Who may use the admin API (besides the session cookie's SameSite=Strict).
 *
 * With a public origin (PUBLIC_URL): a state-changing request must carry exactly that Origin —
 * scheme, host and port. The Host is not checked: a proxy in front may rewrite it, and a
 * DNS-rebinding page cannot forge the Origin.
 *
 * Without one, the server only knows the address it was reached at, and the Host header that
 * names it is the attacker's own under DNS rebinding (evil.test resolving to 127.0.0.1). So every
 * request — reads too — must name a loopback host, and a state-changing one must carry the
 * origin of that address exactly: this server's scheme (plain HTTP), that host, that port. A
 * page on another loopback port (another local dev server) has another origin, though the
 * session cookie, which ignores ports, would go with its requests.
 */
export function originCheck(publicOrigin: string | undefined): RequestHandler {
  return (req, _res, next) => {
    let expected: string;
    if (publicOrigin !== undefined) {
      expected = publicOrigin;
    } else {
      const own = originAt(req.protocol, req.get("host"));
      if (own === null || !isLoopbackHostname(own.hostname)) {
        throw new HttpError(403, LOOPBACK_ONLY_MESSAGE);
      }
      expected = own.origin;
    }
    // Browsers send the serialised origin: compared as a string, so scheme, host and port count.
    // A request with `Authorization: Bearer` is judged by its token alone (requireSession), never
    // by a cookie, so a page elsewhere cannot make one with the user's credentials: browsers send
    // no Bearer by themselves, and a script's only after a CORS preflight, never passed here.
    const byToken = BEARER.test(req.get("authorization") ?? "");
    if (STATE_CHANGING.has(req.method) && !byToken && req.get("origin") !== expected) {
      throw new HttpError(403, CROSS_ORIGIN_MESSAGE);
    }
    next();
  };
}

/**
 * The origin the dashboard's links (invitations, password resets) are made with: PUBLIC_URL, else
 * the loopback address the request came to. Only after `originCheck`, which refuses any other
 * Host: so a forged Host header can never point a mailed link (and its token) elsewhere.
 */
export function dashboardOrigin(
  req: { readonly protocol: string; get(name: "host"): string | undefined },
  publicOrigin: string | undefined,
): string {
  return publicOriginOf(req, publicOrigin);
}

/**
 * This server's public origin for the request, which the admin router sets on every request
 * (`dashboardOrigin`): `PUBLIC_URL`'s, else the address the request came to.
 */
export function requestOrigin(res: Response): string {
  const origin = res.locals.publicOrigin;
  if (origin === undefined) throw new Error("The admin router did not set the request's origin.");
  return origin;
}

export const signInFirst = (): DomainError => new DomainError("unauthenticated", "Sign in first.");

export const TOKEN_REFUSED_MESSAGE = "Invalid, expired or revoked access token.";

/** The access token's part of the request: how it is known, and each use recorded. */
export interface TokenAuth {
  authenticate(raw: string): Promise<TokenGrant | null>;
  /** A use, for `lastUsedAt` (batched: keys/last-used.ts). */
  used(hash: string): void;
}

/**
 * Everything after this needs a live session or a live access token ("unauthenticated": 401
 * otherwise). A request with `Authorization: Bearer` is judged by it alone (`pr_pat_…`; admin.yaml,
 * the AccessToken scheme), its cookie ignored; what the token may do is `requireTokenScope`'s.
 * Another scheme (the Basic credentials a browser sends to a proxy in front) is not Pressroom's.
 * Looked up once per request: a second run (a blog write checks before its large body is read)
 * passes.
 */
export function requireSession(sessions: SessionsStore, tokens: TokenAuth): RequestHandler {
  return async (req, res, next) => {
    if (res.locals.userId !== undefined) {
      next();
      return;
    }
    const authorization = req.get("authorization");
    if (authorization !== undefined && BEARER.test(authorization)) {
      const raw = /^Bearer +(\S+) *$/i.exec(authorization)?.[1];
      const grant = raw === undefined ? null : await tokens.authenticate(raw);
      if (grant === null) throw new DomainError("unauthenticated", TOKEN_REFUSED_MESSAGE);
      tokens.used(grant.hash);
      res.locals.userId = grant.userId;
      res.locals.accessToken = grant;
      actAsToken({ id: grant.tokenId, name: grant.name }, next);
      return;
    }
    const token = sessionTokenOf(req);
    const userId = token === undefined ? null : await sessions.userOf(token);
    if (userId === null) throw signInFirst();
    res.locals.userId = userId;
    next();
  };
}

export const signedInUser = (res: Pick<Response, "locals">): string => {
  if (res.locals.userId === undefined) throw signInFirst();
  return res.locals.userId;
};

/**
 * Workspace routes: members only (workspace-rules.ts: others are told it does not exist), and
 * an owner of a workspace that requires two-step sign-in of its owners only with it. A request
 * reads its membership and the workspace's rule at once; an owner's, when the rule is on, then
 * the account.
 */
export function requireMember(
  workspaces: Pick<WorkspacesStore, "roleIn" | "ownersNeedTwoStep">,
  users: Pick<UsersStore, "findById">,
): RequestHandler<{ workspaceId: string }> {
  return async (req, res, next) => {
    // Already run for this request (a blog write checks before its large body is read).
    if (res.locals.role !== undefined) {
      next();
      return;
    }
    const { workspaceId } = req.params;
    const userId = signedInUser(res);
    // The membership and the workspace's rule are read together: one round trip of waiting
    // instead of two on an owner's every request, for one small read by `_id` that a member's
    // request does not need.
    const [membership, twoStepRule] = await Promise.all([
      workspaces.roleIn(workspaceId, userId),
      workspaces.ownersNeedTwoStep(workspaceId),
    ]);
    const role = memberRole(membership);
    if (role === "owner" && twoStepRule) {
      const user = await users.findById(userId);
      ownerTwoStepRule(role, true, user !== null && hasTwoStep(user));
    }
    res.locals.role = role;
    next();
  };
}

/** The signed-in user's role in the workspace of the path; after `requireMember`. */
export const roleInPath = (res: Pick<Response, "locals">): Role => {
  if (res.locals.role === undefined) throw new Error("requireMember did not run");
  return res.locals.role;
};

/** What only a workspace's owner may do (workspace-rules.ts). After `requireMember`. */
export const requireOwner: RequestHandler = (_req, res, next) => {
  mustBeOwner(res.locals.role);
  next();
};

/** admin.yaml's `BlogId`: a path segment that names a blog (`preview` names another operation). */
const BLOG_ID = /^b_[A-Za-z0-9]+$/;

const IF_MATCH_REQUIRED_MESSAGE =
  "This write needs If-Match: the ETag of the version it was made on (or * for whichever is current).";

/**
 * Every write of a blog names the version it was made on (admin.yaml, "Conditional writes",
 * `PreconditionRequired`): without `If-Match` it is refused with 428 (RFC 6585). Mounted after
 * the session and membership checks, so a stranger learns nothing, and before the body is read
 * and the validator runs (which would call the missing header a 400). A path segment that is no
 * blog id (`/blogs/preview`) is left to the validator.
 */
export const blogWriteNamesVersion: RequestHandler<{ workspaceId: string; blogId?: string }> = (
  req,
  _res,
  next,
) => {
  if (BLOG_ID.test(req.params.blogId ?? "") && req.get("if-match") === undefined) {
    throw new HttpError(428, IF_MATCH_REQUIRED_MESSAGE);
  }
  next();
};
