import { useState } from "preact/hooks";
import { ApiError, api, call, type Me, messageOf, type TwoStepChallenge } from "../../api.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { useFocusOnMount, useSubmit } from "../../hooks.js";
import type { Throttle } from "./throttle.js";
import { ThrottledSubmit } from "./throttled-submit.js";
import { codeToSend } from "./two-step-text.js";
import "./recovery.css";
import "./two-step.css";

interface SignInCodeProps {
  /** The first step's answer (admin.yaml, signIn `202`). */
  challenge: TwoStepChallenge;
  /** The email the password was right for: the throttle's key, as the server counts it. */
  email: string;
  throttle: Throttle;
  onSignedIn: (me: Me) => void;
  /** Back to the password, with why (the challenge expired), or null (the person chose to). */
  onBack: (why: string | null) => void;
}

const EXPIRED = "That sign-in took too long. Enter your password again, then a new code.";

/**
 * A 401 about the challenge rather than the code (admin.yaml, signInWithCode `401`: the message
 * says which). Told by the server's words, not by `expiresAt` against this browser's clock, which
 * may be minutes off the server's.
 */
const challengeGone = (err: ApiError): boolean =>
  /expired|challenge|sign in again|start again|no longer/i.test(err.message);

/**
 * The second step of signing in (admin.yaml, signInWithCode), on the sign-in card: the code the
 * authenticator app shows, or a recovery code instead. What is typed is sent without its spaces;
 * a wrong code is said on the field; a challenge past its time sends the person back to the
 * password step, saying why.
 */
export function SignInCode({ challenge, email, throttle, onSignedIn, onBack }: SignInCodeProps) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState("");
  const form = useCheckedForm<"code">();
  const lead = useFocusOnMount<HTMLInputElement>();
  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 401) {
      if (challengeGone(err)) {
        onBack(EXPIRED);
        return null;
      }
      form.showOnField("code", err.message);
      return null;
    }
    if (!(err instanceof ApiError && err.status === 429)) return messageOf(err);
    throttle.hold(
      email,
      err.retryAfterSeconds,
      (wait) => `Too many attempts. For your security, try again in ${wait}.`,
    );
    return null;
  });
  const verify = form.checked(
    () => ({
      code:
        code.trim() === ""
          ? recovery
            ? "Enter one of your recovery codes."
            : "Enter the code your app shows."
          : codeToSend(code) === null
            ? recovery
              ? "A recovery code looks like abcde-23456."
              : "The code is the 6 digits your app shows."
            : undefined,
    }),
    submit(async () => {
      const body = { challenge: challenge.challenge, code: codeToSend(code) ?? "" };
      onSignedIn(await call(api.POST("/session/two-step", { body })));
    }),
  );
  const switchKind = () => {
    setRecovery(!recovery);
    setCode("");
    form.clear("code");
    lead.current?.focus();
  };

  return (
    <>
      <p>
        {recovery
          ? "Enter one of the recovery codes you saved when you turned on two-step sign-in. Each works once."
          : "Open your authenticator app and enter the code it shows for Pressroom."}
      </p>
      <form class="stack" noValidate ref={form.formRef} onSubmit={verify}>
        <Field
          label={recovery ? "Recovery code" : "Authentication code"}
          hint={recovery ? "Like abcde-23456." : "6 digits; spaces are fine."}
          error={form.errors.code}
        >
          {(p) => (
            <input
              {...p}
              ref={lead}
              required
              class="mono"
              inputMode={recovery ? "text" : "numeric"}
              autocomplete={recovery ? "off" : "one-time-code"}
              autocapitalize="off"
              spellcheck={false}
              value={code}
              onInput={(e) => {
                setCode(e.currentTarget.value);
                form.clear("code");
              }}
            />
          )}
        </Field>
        <ThrottledSubmit
          error={error}
          throttle={throttle}
          busy={busy}
          label="Verify"
          busyLabel="Verifying…"
        />
      </form>
      <p class="auth-links split">
        <button type="button" class="link-button" onClick={switchKind}>
          {recovery ? "Use the code from your app" : "Use a recovery code"}
        </button>
        <button type="button" class="link-button" onClick={() => onBack(null)}>
          Back to password
        </button>
      </p>
    </>
  );
}
