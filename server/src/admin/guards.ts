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
 * Cross-site request forgery guard (besides SameSite=Strict): a state-changing request must
 * carry an Origin equal to the public origin, or — with none configured — to its own Host.
 */
export function originCheck(publicOrigin: string | undefined): RequestHandler {
  return (req, _res, next) => {
    if (!STATE_CHANGING.has(req.method)) return next();
    const origin = req.get("origin");
    let ok = false;
    if (origin !== undefined && origin !== "null") {
      try {
        const url = new URL(origin);
        ok =
          publicOrigin !== undefined ? url.origin === publicOrigin : url.host === req.get("host");
      } catch {
        ok = false;
      }
    }
    if (!ok) throw new HttpError(403, "Cross-origin request refused.");
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
