import { useEffect, useState } from "preact/hooks";
import { ApiError, api, call, type Me, messageOf } from "../../api.js";
import { AuthCard } from "../../components/auth-card.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useFocusOnMount, useTitle } from "../../hooks.js";
import { wellFormedConfirmToken } from "./confirm-email-link.js";
import "./recovery.css";

/** A link cut short on its way (a mail client that wrapped it): never sent to the server. */
const INCOMPLETE =
  "This confirmation link is incomplete. Open it again from the mail, whole, or ask for the change again from your account.";
/** What a `410` means, in plain words: every link that cannot be used gets it. */
const WHY_GONE =
  "A link works once: if it was used already, the change is made, and you sign in with the new email. It also works only for 24 hours, and only while it is the latest one asked for: a newer request, a cancellation or a password change since then ends it, and the email stays as it was.";

type Outcome =
  | { state: "confirming" }
  | { state: "changed"; email: string; me: Me | null }
  | { state: "gone"; message: string }
  | { state: "failed"; message: string; retry: boolean };

interface ConfirmEmailProps {
  /** From the link's fragment (confirm-email-link.ts); sent only in the request's body. */
  token: string;
  /** Whether this browser is signed in (to any account): where "leave" goes. */
  signedIn: boolean;
  /** Leaves the page: with the signed-in user as now (after a change), or null. */
  onLeave: (me: Me | null) => void;
}

/**
 * The page of an email-change confirmation link (`/dashboard/#/confirm-email/{token}`;
 * admin.yaml, confirmEmailChange): it confirms as it opens, signed in or not, in whichever
 * browser opened the mail, and says what happened. A link that cannot be used (one `410`) is
 * explained; nothing changed then.
 */
export function ConfirmEmail({ token, signedIn, onLeave }: ConfirmEmailProps) {
  useTitle("Confirm your new email");
  const [outcome, setOutcome] = useState<Outcome>(() =>
    wellFormedConfirmToken(token)
      ? { state: "confirming" }
      : { state: "gone", message: INCOMPLETE },
  );
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!wellFormedConfirmToken(token)) return;
    let live = true;
    setOutcome({ state: "confirming" });
    (async () => {
      try {
        const { email } = await call(api.POST("/email-changes/confirm", { body: { token } }));
        // Signed in (as this account or another): the dashboard shows the account as now.
        const me = signedIn ? await call(api.GET("/me")).catch(() => null) : null;
        if (live) setOutcome({ state: "changed", email, me });
      } catch (err) {
        if (!live) return;
        if (err instanceof ApiError && err.status === 410) {
          setOutcome({ state: "gone", message: err.message });
        } else {
          const retry = !(err instanceof ApiError) || err.status === 0 || err.status === 429;
          setOutcome({ state: "failed", message: messageOf(err), retry });
        }
      }
    })();
    return () => {
      live = false;
    };
  }, [token, attempt]);

  const leave = (
    <p class="auth-links">
      <button
        type="button"
        class="link-button"
        onClick={() => onLeave(outcome.state === "changed" ? outcome.me : null)}
      >
        {signedIn ? "Back to the dashboard" : "Go to sign in"}
      </button>
    </p>
  );
  switch (outcome.state) {
    case "confirming":
      return (
        <AuthCard title="Confirming your new email">
          <Loading label="Confirming your new email…" />
        </AuthCard>
      );
    case "changed":
      return (
        <AuthCard title="Your email is changed">
          <Changed email={outcome.email} />
          {leave}
        </AuthCard>
      );
    case "gone":
      return (
        <AuthCard title="This confirmation link cannot be used">
          <ErrorMessage message={outcome.message} focus />
          {outcome.message !== INCOMPLETE && <p>{WHY_GONE}</p>}
          {leave}
        </AuthCard>
      );
    case "failed":
      return (
        <AuthCard title="Your email could not be changed">
          <ErrorMessage
            message={outcome.message}
            focus
            {...(outcome.retry ? { onRetry: () => setAttempt((n) => n + 1) } : {})}
          />
          {leave}
        </AuthCard>
      );
  }
}

/** The success, focused as it replaces the spinner, so it is read out. */
function Changed({ email }: { email: string }) {
  const ref = useFocusOnMount<HTMLDivElement>();
  return (
    <div class="notice success recovery" role="status" tabIndex={-1} ref={ref}>
      <p>
        Your Pressroom email is now <strong>{email}</strong>. Sign in with it from now on; your old
        address no longer works, and a notice was sent to it.
      </p>
    </div>
  );
}
