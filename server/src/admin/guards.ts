import { parse as parseCookie } from "cookie";
import type { Request, RequestHandler, Response } from "express";
import type { Role } from "../db/collections.js";
import { HttpError } from "../http/errors.js";
import type { SessionsStore } from "../sessions/sessions-store.js";
import type { UsersStore } from "../users/users-store.js";

export const SESSION_COOKIE = "pressroom_session";

declare global {
  namespace Express {
    interface Locals {
      /** The signed-in user (admin API). */
      userId?: string;
      /** Their role in the workspace of the path (admin API). */
      role?: Role;
    }
  }
}

export const sessionTokenOf = (req: Request): string | undefined =>
  parseCookie(req.headers.cookie ?? "")[SESSION_COOKIE];

export function setSessionCookie(res: Response, token: string, expiresAt: Date, secure: boolean) {
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "strict",
    secure,
    path: "/",
    expires: expiresAt,
  });
}

export function clearSessionCookie(res: Response, secure: boolean) {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "strict", secure, path: "/" });
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Host names that always mean this machine: `localhost`, 127.0.0.0/8 and `[::1]`, as the URL
 * parser spells them (so `127.1` and `0x7f.0.0.1` count as `127.0.0.1`). Not `*.localhost`:
 * some browsers pin it to loopback, but other clients resolve it through DNS, which the
 * attacker of a DNS-rebinding page controls; PUBLIC_URL=http://app.localhost:3000 serves it.
 */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** `http://host[:port]` for a Host header, normalised as a browser's Origin is; null if unusable. */
function originAt(protocol: string, host: string | undefined): URL | null {
  if (host === undefined || host === "" || /[/?#@\\\s]/.test(host)) return null;
  try {
    return new URL(`${protocol}://${host}`);
  } catch {
    return null;
  }
}

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
    if (STATE_CHANGING.has(req.method) && req.get("origin") !== expected) {
      throw new HttpError(403, CROSS_ORIGIN_MESSAGE);
    }
    next();
  };
}

/** Everything after this needs a live session: 401 otherwise. */
export function requireSession(sessions: SessionsStore): RequestHandler {
  return async (req, res, next) => {
    const token = sessionTokenOf(req);
    const userId = token === undefined ? null : await sessions.userOf(token);
    if (userId === null) throw new HttpError(401, "Sign in first.");
    res.locals.userId = userId;
    next();
  };
}

export const signedInUser = (res: Response): string => {
  if (res.locals.userId === undefined) throw new HttpError(401, "Sign in first.");
  return res.locals.userId;
};

/** Workspace routes: a non-member gets the same 404 as for a workspace that does not exist. */
export function requireMember(users: UsersStore): RequestHandler<{ workspaceId: string }> {
  return async (req, res, next) => {
    const role = await users.roleIn(req.params.workspaceId, signedInUser(res));
    if (role === null) throw new HttpError(404, "Workspace not found.");
    res.locals.role = role;
    next();
  };
}

export const requireOwner: RequestHandler = (_req, res, next) => {
  if (res.locals.role !== "owner")
    throw new HttpError(403, "Only the workspace owner can do this.");
  next();
};
