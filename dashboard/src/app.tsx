import { useEffect, useRef, useState } from "preact/hooks";
import { api, call, type Me, type SessionStatus, setSessionEndedHandler } from "./api.js";
import { AuthCard } from "./components/auth-card.js";
import { OfflineBanner } from "./components/offline-banner.js";
import { ErrorMessage, Loading } from "./components/status.js";
import { ConfirmEmail } from "./features/account/confirm-email.js";
import { useConfirmEmailLink } from "./features/account/confirm-email-link.js";
import { ForgotPassword } from "./features/account/forgot-password.js";
import { useResetLink } from "./features/account/reset-link.js";
import { ResetPassword } from "./features/account/reset-password.js";
import { Setup } from "./features/account/setup.js";
import { Join } from "./features/team/join.js";
import { forgetJoinLink, joinTokenOf } from "./features/team/join-link.js";
import { hrefOf, navigate } from "./router.js";
import { Shell } from "./shell.js";
import { type Load, useLoad } from "./use-load.js";
import "./components/chrome.css";
import { SignIn } from "./features/account/sign-in.js";

const JOINED_SIGN_IN =
  "You joined the workspace. Your account uses two-step sign-in: sign in with your password, then the code from your app.";

type Auth =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "setup" }
  | { state: "signIn"; notice: string | null }
  | { state: "forgot" }
  | { state: "in"; me: Me };

/** The screen the session's answer asks for, until something happens. */
function authOf(session: Load<SessionStatus>): Auth {
  if (session.data?.signedIn) return { state: "in", me: session.data.me };
  if (session.data) {
    return session.data.setupNeeded ? { state: "setup" } : { state: "signIn", notice: null };
  }
  return session.error ? { state: "failed", message: session.error.message } : { state: "loading" };
}

/**
 * After a move from one screen to another (not the first one shown, nor into the signed-in
 * frame, which focuses its own headings), the keyboard focus goes to the new screen's heading,
 * unless the screen placed it already (the sign-in screen's notice): it never stays on the
 * `<body>` a removed button left it on.
 */
function useFocusOnScreenChange(screen: string): void {
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const from = previous.current;
    previous.current = screen;
    if (from === null || from === "loading" || from === screen) return;
    if (screen === "loading" || screen === "in") return;
    const main = document.querySelector("main");
    if (main?.contains(document.activeElement) && document.activeElement !== main) return;
    main?.querySelector<HTMLElement>("h1")?.focus();
  }, [screen]);
}

/** Every screen, with the connection notice above it. */
export function App() {
  return (
    <>
      <OfflineBanner />
      <Screen />
    </>
  );
}

/** Who is here decides the screen: first-run setup, sign-in, or the dashboard itself. */
function Screen() {
  // One request decides: GET /session answers 200 signed in or not (a 401 here would show as a
  // failed request in the console of every first visit).
  const session = useLoad(() => call(api.GET("/session")), [], { clearError: "request" });
  /** Once someone signs in or out (or the session ends), that decides instead of the answer. */
  const [decided, setAuth] = useState<Auth | null>(null);
  // An invitation link opened this page (`#/join/{token}`): the join screen comes first.
  const [joinToken, setJoinToken] = useState(() => joinTokenOf(location.hash));
  // A password reset link (`#/reset/{token}`): its page comes first, signed in or not.
  const reset = useResetLink();
  // An email-change confirmation link (`#/confirm-email/{token}`): its page, signed in or not.
  const confirmEmail = useConfirmEmailLink();
  const auth: Auth = decided ?? authOf(session);
  /** Whether this server mails reset links; null once signed in (the answer does not say). */
  const resetByMail =
    session.data && !session.data.signedIn ? session.data.passwordResetByMail : null;
  const showsJoin = joinToken !== null && auth.state !== "loading" && auth.state !== "failed";
  const showsConfirm =
    confirmEmail.token !== null && auth.state !== "loading" && auth.state !== "failed";
  useFocusOnScreenChange(
    reset.token !== null
      ? "reset"
      : showsConfirm
        ? "confirmEmail"
        : showsJoin
          ? "join"
          : auth.state,
  );

  const signedIn = auth.state === "in";
  useEffect(() => {
    if (!signedIn) return;
    setSessionEndedHandler(() =>
      setAuth({ state: "signIn", notice: "Your session has ended. Sign in again to continue." }),
    );
    return () => setSessionEndedHandler(null);
  }, [signedIn]);

  const enter = (me: Me) => setAuth({ state: "in", me });
  if (reset.token !== null) {
    return (
      <ResetPassword
        token={reset.token}
        leave={{
          label: auth.state === "in" ? "Back to the dashboard" : "Back to sign in",
          onLeave: reset.done,
        }}
        onChanged={() => {
          reset.done();
          setAuth({ state: "signIn", notice: "Your password is changed. Sign in with it." });
        }}
        onAskAgain={() => {
          reset.done();
          setAuth({ state: "forgot" });
        }}
      />
    );
  }
  if (showsConfirm && confirmEmail.token !== null) {
    return (
      <ConfirmEmail
        token={confirmEmail.token}
        signedIn={auth.state === "in"}
        onLeave={(me) => {
          confirmEmail.done();
          if (me !== null) enter(me);
        }}
      />
    );
  }
  if (showsJoin) {
    return (
      <Join
        token={joinToken}
        me={auth.state === "in" ? auth.me : null}
        onJoined={(me, workspaceId) => {
          forgetJoinLink();
          setJoinToken(null);
          // An account with two-step sign-in joins by its password without a session (admin.yaml,
          // acceptInvitation): it signs in with its code next, and lands in the workspace then.
          const sessionMade = auth.state === "in" && auth.me.user.id === me.user.id;
          if (me.twoStep.enabled && !sessionMade) {
            setAuth({ state: "signIn", notice: JOINED_SIGN_IN });
          } else {
            enter(me);
          }
          navigate(
            hrefOf(
              workspaceId ? { name: "blogs", ws: workspaceId, status: null } : { name: "home" },
            ),
            {
              replace: true,
            },
          );
        }}
      />
    );
  }
  switch (auth.state) {
    case "loading":
      return (
        <main class="auth">
          <Loading label="Loading Pressroom…" />
        </main>
      );
    case "failed":
      return (
        <AuthCard title="Pressroom is not answering">
          <ErrorMessage message={auth.message} onRetry={session.reload} />
        </AuthCard>
      );
    case "setup":
      return (
        <Setup
          onDone={enter}
          onAlreadyDone={() =>
            setAuth({ state: "signIn", notice: "Setup has already been done. Sign in instead." })
          }
        />
      );
    case "signIn":
      return (
        <SignIn
          notice={auth.notice}
          onSignedIn={enter}
          onForgot={() => setAuth({ state: "forgot" })}
        />
      );
    case "forgot":
      return (
        <ForgotPassword
          byMail={resetByMail}
          onBack={() => setAuth({ state: "signIn", notice: null })}
        />
      );
    case "in":
      return (
        <Shell
          me={auth.me}
          onMeChange={enter}
          onSignedOut={() => setAuth({ state: "signIn", notice: "You have signed out." })}
        />
      );
  }
}
