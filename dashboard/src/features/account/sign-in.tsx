import { useEffect, useState } from "preact/hooks";
import { ApiError, api, call, type Me, messageOf } from "../../api.js";
import { AuthCard } from "../../components/auth-card.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { PasswordField } from "../../components/password-field.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit, useTitle } from "../../hooks.js";

/** "45 s", or "15 min" for longer waits. */
const inAWhile = (seconds: number): string =>
  seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
/** "45 s", or "14:05" for longer waits. */
const clock = (seconds: number): string =>
  seconds < 120
    ? `${seconds} s`
    : `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

interface SignInProps {
  notice: string | null;
  onSignedIn: (me: Me) => void;
}

export function SignIn({ notice, onSignedIn }: SignInProps) {
  useTitle("Sign in");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  /** While throttled (429): the email it applies to, and when the server accepts it again. */
  const [throttle, setThrottle] = useState<{
    email: string;
    until: number;
    message: string;
  } | null>(null);
  const normalized = email.trim().toLowerCase();
  const retryAt = throttle?.email === normalized ? throttle.until : null;
  const [now, setNow] = useState(Date.now);

  useEffect(() => {
    if (throttle === null) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= throttle.until) setThrottle(null);
    }, 1000);
    return () => clearInterval(timer);
  }, [throttle]);

  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 401) return "Wrong email or password.";
    if (!(err instanceof ApiError && err.status === 429)) return messageOf(err);
    const seconds = err.retryAfterSeconds ?? 60;
    setThrottle({
      email: normalized,
      until: Date.now() + seconds * 1000,
      message: `Too many attempts. For your security, try again in ${inAWhile(seconds)}.`,
    });
    setNow(Date.now());
    return null;
  });
  const form = useCheckedForm<"email" | "password">();
  const signIn = form.checked(
    () => ({
      email: problemOf(email, { required: "Enter your email address.", email: true }),
      password: problemOf(password, { required: "Enter your password." }),
    }),
    submit(async () => {
      onSignedIn(await call(api.POST("/session", { body: { email: email.trim(), password } })));
    }),
  );

  const wait = retryAt === null ? 0 : Math.max(1, Math.ceil((retryAt - now) / 1000));
  return (
    <AuthCard title="Sign in">
      {notice && (
        <p class="notice info" role="status">
          {notice}
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
        {error && <ErrorMessage message={error} />}
        {retryAt !== null && throttle && <ErrorMessage message={throttle.message} />}
        <button type="submit" class="button primary block" disabled={busy || retryAt !== null}>
          {retryAt !== null ? `Try again in ${clock(wait)}` : busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </AuthCard>
  );
}
