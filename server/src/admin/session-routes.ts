import type { Response } from "express";
import type { AdminHandler } from "../platform/http/admin-types.js";
import type { SessionsStore } from "../sessions/sessions-store.js";
import type { PasswordSignIn } from "../sessions/sign-in.js";
import type { FirstRunSetup } from "./first-run-setup.js";
import {
  clearSessionCookie,
  requestOrigin,
  sessionTokenOf,
  setSessionCookie,
  signedInUser,
} from "./guards.js";
import type { MeView } from "./me-view.js";

export interface SessionDeps {
  /** The signed-in user as `Me` (me-view.ts). */
  view: MeView;
  setup: FirstRunSetup;
  sessions: SessionsStore;
  signIn: PasswordSignIn;
  secureCookies: boolean;
  /** Whether "Forgot password?" can mail a link (a mailer is configured). */
  passwordResetByMail: boolean;
}

/** First-run setup, sign-in, sign-out and "who am I". */
export function sessionHandlers(deps: SessionDeps) {
  const { setup, sessions, secureCookies } = deps;
  const { me, meOrNull } = deps.view;
  const startSession = (
    res: Pick<Response, "cookie">,
    session: { token: string; expiresAt: Date },
  ) => {
    setSessionCookie(res, session.token, session.expiresAt, secureCookies);
  };

  const getSetupStatus: AdminHandler<"getSetupStatus"> = async (_req, res) => {
    res.json({ needed: await setup.needed() });
  };

  const runSetup: AdminHandler<"runSetup"> = async (req, res) => {
    const { user } = await setup.run(req.body);
    startSession(res, await sessions.create(user));
    res.status(201).json(await me(user._id, requestOrigin(res)));
  };

  const signIn: AdminHandler<"signIn"> = async (req, res) => {
    const signedIn = await deps.signIn(req.body.email, req.body.password, req.ip);
    if ("codeNeeded" in signedIn) {
      // Two-step sign-in: nobody is signed in until the code (two-step-routes.ts).
      res.status(202).json({
        challenge: signedIn.challenge,
        expiresAt: signedIn.expiresAt.toISOString(),
      });
      return;
    }
    startSession(res, signedIn);
    res.json(await me(signedIn.user._id, requestOrigin(res)));
  };

  const signOut: AdminHandler<"signOut"> = async (req, res) => {
    const token = sessionTokenOf(req);
    if (token !== undefined) await sessions.delete(token);
    clearSessionCookie(res, secureCookies);
    res.status(204).end();
  };

  // The dashboard's first request: signed out is a 200 like signed in, so a first visit logs no
  // failed request (admin.yaml, getSession). Open to everyone, like /setup; reads the cookie itself.
  const getSession: AdminHandler<"getSession"> = async (req, res) => {
    const token = sessionTokenOf(req);
    const userId = token === undefined ? null : await sessions.userOf(token);
    const found = userId === null ? null : await meOrNull(userId, requestOrigin(res));
    // A cookie that names no live session is of no use to the browser: it is removed.
    if (token !== undefined && found === null) clearSessionCookie(res, secureCookies);
    res.json(
      found === null
        ? {
            signedIn: false,
            setupNeeded: await setup.needed(),
            passwordResetByMail: deps.passwordResetByMail,
          }
        : { signedIn: true, me: found },
    );
  };

  const getMe: AdminHandler<"getMe"> = async (_req, res) => {
    res.json(await me(signedInUser(res), requestOrigin(res)));
  };

  return { getSetupStatus, getSession, runSetup, signIn, signOut, getMe };
}
