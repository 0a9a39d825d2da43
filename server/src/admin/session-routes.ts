import type { RequestHandler, Response } from "express";
import { HttpError } from "../http/errors.js";
import type { SessionsStore } from "../sessions/sessions-store.js";
import type { SignInThrottle } from "../sessions/sign-in-throttle.js";
import { verifyAgainstNothing, verifyPassword } from "../users/passwords.js";
import { toUserView, type UsersStore } from "../users/users-store.js";
import type { Me, SessionStatus, SetupRequest, SignInRequest } from "./admin-types.js";
import { clearSessionCookie, sessionTokenOf, setSessionCookie, signedInUser } from "./guards.js";

export interface SessionDeps {
  users: UsersStore;
  sessions: SessionsStore;
  throttle: SignInThrottle;
  secureCookies: boolean;
}

/** First-run setup, sign-in, sign-out and "who am I". */
export function sessionHandlers({ users, sessions, throttle, secureCookies }: SessionDeps) {
  /** The user with their workspaces, or null when the account no longer exists. */
  const meOrNull = async (userId: string): Promise<Me | null> => {
    const user = await users.findById(userId);
    if (user === null) return null;
    return { user: toUserView(user), workspaces: await users.workspacesOf(userId) };
  };
  const me = async (userId: string): Promise<Me> => {
    const found = await meOrNull(userId);
    if (found === null) throw new HttpError(401, "Sign in first.");
    return found;
  };
  const startSession = async (res: Response, userId: string) => {
    const { token, expiresAt } = await sessions.create(userId);
    setSessionCookie(res, token, expiresAt, secureCookies);
  };

  const getSetupStatus: RequestHandler = async (_req, res) => {
    res.json({ needed: await users.setupNeeded() });
  };

  const runSetup: RequestHandler<object, Me, SetupRequest> = async (req, res) => {
    const { user } = await users.setup(req.body);
    await startSession(res, user._id);
    res.status(201).json(await me(user._id));
  };

  const signIn: RequestHandler<object, Me, SignInRequest> = async (req, res) => {
    const { email, password } = req.body;
    // Counted before the password is checked, so parallel attempts cannot outrun the count: over
    // a limit this throws 429 and no password is checked. A failure stays counted.
    const attempt = await throttle.begin(email, req.ip);
    const user = await users.findByEmail(email);
    const ok =
      user === null
        ? await verifyAgainstNothing(password)
        : await verifyPassword(user.passwordHash, password);
    if (user === null || !ok) throw new HttpError(401, "Wrong email or password.");
    await attempt.succeeded();
    await startSession(res, user._id);
    res.json(await me(user._id));
  };

  const signOut: RequestHandler = async (req, res) => {
    const token = sessionTokenOf(req);
    if (token !== undefined) await sessions.delete(token);
    clearSessionCookie(res, secureCookies);
    res.status(204).end();
  };

  // The dashboard's first request: signed out is a 200 like signed in, so a first visit logs no
  // failed request (admin.yaml, getSession). Open to everyone, like /setup; reads the cookie itself.
  const getSession: RequestHandler<Record<string, string>, SessionStatus> = async (req, res) => {
    const token = sessionTokenOf(req);
    const userId = token === undefined ? null : await sessions.userOf(token);
    const found = userId === null ? null : await meOrNull(userId);
    res.json(
      found === null
        ? { signedIn: false, setupNeeded: await users.setupNeeded() }
        : { signedIn: true, me: found },
    );
  };

  const getMe: RequestHandler<object, Me> = async (_req, res) => {
    res.json(await me(signedInUser(res)));
  };

  return { getSetupStatus, getSession, runSetup, signIn, signOut, getMe };
}
