import { useEffect, useRef, useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError, api, messageOf, send } from "../../api.js";
import { AuthCard } from "../../components/auth-card.js";
import { fieldOfMessage, useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { useFocusOnMount, useSubmit, useTitle } from "../../hooks.js";
import { useThrottle } from "./throttle.js";
import { ThrottledSubmit } from "./throttled-submit.js";
import "./recovery.css";

const limits = adminLimits.requestPasswordReset;

/** Said once a request is taken, whether or not an account has the email (admin.yaml: 202). */
export const RESET_LINK_SENT =
  "If an account has that email, a link to choose a new password is on its way. It works once, for 30 minutes.";

interface ForgotPasswordProps {
  /**
   * Whether this server mails reset links (`GET /session`'s `passwordResetByMail`); null when
   * the page has not been told (it was signed in): the form shows, and a `501` says no.
   */
  byMail: boolean | null;
  onBack: () => void;
}

/**
 * "Forgot password?": asks the server to mail a one-time link (`requestPasswordReset`), or,
 * on a server that sends no mail, says how its operator makes one on the command line.
 */
export function ForgotPassword({ byMail, onBack }: ForgotPasswordProps) {
  useTitle("Reset your password");
  /** "form", "sent", or "noMail"; `moved` once the screen changed it (focus follows). */
  const [step, setStep] = useState<"form" | "sent" | "noMail">(
    byMail === false ? "noMail" : "form",
  );
  const [moved, setMoved] = useState(false);
  const go = (next: typeof step) => {
    setStep(next);
    setMoved(true);
  };
  const [email, setEmail] = useState("");
  const normalized = email.trim().toLowerCase();
  const throttle = useThrottle(normalized);
  const form = useCheckedForm<"email">();
  const emailRef = useRef<HTMLInputElement>(null);
  // Back to the form ("Ask again"): its field, with the email as typed, takes the focus.
  useEffect(() => {
    if (step === "form" && moved) emailRef.current?.focus();
  }, [step]);

  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 501) {
      go("noMail");
      return null;
    }
    if (err instanceof ApiError && err.status === 429) {
      throttle.hold(
        normalized,
        err.retryAfterSeconds,
        (wait) => `Too many requests for a reset link. For your security, try again in ${wait}.`,
      );
      return null;
    }
    if (
      err instanceof ApiError &&
      err.status === 400 &&
      fieldOfMessage(err.message, { email: /email/i })
    ) {
      form.showOnField("email", err.message);
      return null;
    }
    return messageOf(err);
  });
  const ask = form.checked(
    () => ({
      email: problemOf(email, {
        required: "Enter the email address of your account.",
        email: true,
        maxLength: limits.email.maxLength,
      }),
    }),
    submit(async () => {
      await send(api.POST("/password-resets", { body: { email: email.trim() } }));
      go("sent");
    }),
  );

  const back = (
    <button type="button" class="link-button" onClick={onBack}>
      Back to sign in
    </button>
  );
  if (step === "noMail") {
    return (
      <AuthCard title="Reset your password">
        <NoMail focus={moved} />
        <p class="auth-links">{back}</p>
      </AuthCard>
    );
  }
  if (step === "sent") {
    return (
      <AuthCard title="Check your email">
        <Sent />
        <p class="auth-links">
          <button type="button" class="link-button" onClick={() => go("form")}>
            Ask again
          </button>
          <span aria-hidden="true"> · </span>
          {back}
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password">
      <p class="lead">
        Enter the email address of your account: a link to choose a new password is mailed to it.
      </p>
      <form class="stack" noValidate ref={form.formRef} onSubmit={ask}>
        <Field label="Email" error={form.errors.email}>
          {(p) => (
            <input
              {...p}
              ref={emailRef}
              type="email"
              required
              maxLength={limits.email.maxLength}
              autocomplete="username"
              value={email}
              onInput={(e) => {
                setEmail(e.currentTarget.value);
                form.clear("email");
              }}
            />
          )}
        </Field>
        <ThrottledSubmit
          error={error}
          throttle={throttle}
          busy={busy}
          label="Send reset link"
          busyLabel="Sending…"
        />
      </form>
      <p class="auth-links">{back}</p>
    </AuthCard>
  );
}

/** The request is taken: the same words whatever the email (the server tells nothing more). */
function Sent() {
  const ref = useFocusOnMount<HTMLDivElement>();
  return (
    <div class="notice success recovery" role="status" tabIndex={-1} ref={ref}>
      <p>{RESET_LINK_SENT}</p>
      <p>
        Nothing after a few minutes? Look in your spam folder, or check the address and ask again.
      </p>
    </div>
  );
}

/** A server without mail (no `SMTP_URL`): its operator makes the link (README, "Operator CLI"). */
function NoMail({ focus }: { focus: boolean }) {
  const ref = useFocusOnMount<HTMLDivElement>(focus);
  return (
    <div tabIndex={-1} ref={ref}>
      <p class="lead">
        This Pressroom server sends no mail, so it cannot mail you a link. Ask the person who runs
        it to make one for your email address:
      </p>
      <pre class="operator-command">
        <code>npx pressroom user reset-password you@example.com</code>
      </pre>
      <p>
        It prints a link that works once, for 30 minutes. Open it here to choose a new password.
      </p>
    </div>
  );
}
