import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, call, type Me, messageOf, type TwoStepChallenge } from "../../api.js";
import { AuthCard } from "../../components/auth-card.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { PasswordField } from "../../components/password-field.js";
import { useFocusOnMount, useSubmit, useTitle } from "../../hooks.js";
import { SignInCode } from "./sign-in-code.js";
import { useThrottle } from "./throttle.js";
import { ThrottledSubmit } from "./throttled-submit.js";
import "./recovery.css";

interface SignInProps {
  /** Why this screen shows (signed out, the session ended, a password changed), focused. */
  notice: string | null;
  onSignedIn: (me: Me) => void;
  /** "Forgot password?": the screen that asks for a reset link. */
  onForgot: () => void;
}

export function SignIn({ notice, onSignedIn, onForgot }: SignInProps) {
  useTitle("Sign in");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const normalized = email.trim().toLowerCase();
  /** While throttled (429) for the email typed: the wait, counted down. */
  const throttle = useThrottle(normalized);
  // The app moves the focus to a new screen's heading unless the screen placed it: here, on
  // the notice that says why this screen shows.
  const noticeRef = useFocusOnMount<HTMLParagraphElement>(notice !== null);
  /** A right password of an account with two-step sign-in: the code step shows instead. */
  const [challenge, setChallenge] = useState<TwoStepChallenge | null>(null);
  /** Why the code step sent the person back here (its challenge expired), focused. */
  const [backNotice, setBackNotice] = useState<string | null>(null);
  const backRef = useRef<HTMLParagraphElement>(null);
  const returned = useRef(false);

  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 401) return "Wrong email or password.";
    if (!(err instanceof ApiError && err.status === 429)) return messageOf(err);
    throttle.hold(
      normalized,
      err.retryAfterSeconds,
      (wait) => `Too many attempts. For your security, try again in ${wait}.`,
    );
    return null;
  });
  const form = useCheckedForm<"email" | "password">();
  // Back from the code step, the focus goes to why, else to the password: never to <body>.
  useLayoutEffect(() => {
    if (challenge !== null || !returned.current) return;
    returned.current = false;
    if (backRef.current) backRef.current.focus();
    else form.formRef.current?.querySelector<HTMLInputElement>("input[type=password]")?.focus();
  }, [challenge]);
  const signIn = form.checked(
    () => ({
      email: problemOf(email, { required: "Enter your email address.", email: true }),
      password: problemOf(password, { required: "Enter your password." }),
    }),
    submit(async () => {
      setBackNotice(null);
      const answer = await call(api.POST("/session", { body: { email: email.trim(), password } }));
      if ("challenge" in answer) setChallenge(answer);
      else onSignedIn(answer);
    }),
  );

  if (challenge !== null) {
    return (
      <AuthCard title="Sign in">
        <SignInCode
          challenge={challenge}
          email={normalized}
          throttle={throttle}
          onSignedIn={onSignedIn}
          onBack={(why) => {
            returned.current = true;
            setPassword("");
            setBackNotice(why);
            setChallenge(null);
          }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Sign in">
      {notice && backNotice === null && (
        <p class="notice info" role="status" tabIndex={-1} ref={noticeRef}>
          {notice}
        </p>
      )}
      {backNotice && (
        <p class="notice info" role="status" tabIndex={-1} ref={backRef}>
          {backNotice}
        </p>
      )}
      <form class="stack" noValidate ref={form.formRef} onSubmit={signIn}>
        <Field label="Email" error={form.errors.email}>
          {(p) => (
            <input
              {...p}
              type="email"
              required
              autocomplete="username"
              value={email}
              onInput={(e) => {
                setEmail(e.currentTarget.value);
                form.clear("email");
              }}
            />
          )}
        </Field>
        <PasswordField
          label="Password"
          error={form.errors.password}
          required
          autocomplete="current-password"
          value={password}
          onInput={(value) => {
            setPassword(value);
            form.clear("password");
          }}
        />
        <ThrottledSubmit
          error={error}
          throttle={throttle}
          busy={busy}
          label="Sign in"
          busyLabel="Signing in…"
        />
      </form>
      <p class="auth-links">
        <button type="button" class="link-button" onClick={onForgot}>
          Forgot password?
        </button>
      </p>
    </AuthCard>
  );
}
