import { useState } from "preact/hooks";
import { ApiError, api, call, messageOf, type TwoStepEnrolment } from "../../api.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { QrCode } from "../../components/qr-code.js";
import { ErrorMessage } from "../../components/status.js";
import { useFocusOnMount, useSubmit } from "../../hooks.js";
import { exactTime } from "../../time.js";
import { appCodeToSend, groupedSecret } from "./two-step-text.js";

interface EnrolStepProps {
  enrolment: TwoStepEnrolment;
  /** On: the recovery codes, to be shown once. */
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}

/**
 * The middle of turning two-step sign-in on (admin.yaml, startTwoStep's answer, then
 * confirmTwoStep): the secret as a QR code for the app's camera and as text for typing (in
 * groups of 4, with Copy), then the code the app shows, which turns it on. The secret stays in
 * this dialog's state only.
 */
export function EnrolStep({ enrolment, onConfirmed, onCancel }: EnrolStepProps) {
  const [code, setCode] = useState("");
  const [copy, setCopy] = useState<"" | "copied" | "failed">("");
  const intro = useFocusOnMount<HTMLParagraphElement>();
  const form = useCheckedForm<"code">();
  const { busy, error, submit } = useSubmit((err) => {
    if (err instanceof ApiError && err.status === 429) {
      return `Too many wrong codes. Try again in ${Math.ceil((err.retryAfterSeconds ?? 60) / 60)} min.`;
    }
    if (!(err instanceof ApiError && err.status === 403)) return messageOf(err);
    form.showOnField("code", err.message);
    return null;
  });
  const confirm = form.checked(
    () => ({
      code:
        code.trim() === ""
          ? "Enter the code your app shows."
          : appCodeToSend(code) === null
            ? "The code is the 6 digits your app shows."
            : undefined,
    }),
    submit(async () => {
      const body = { code: appCodeToSend(code) ?? "" };
      onConfirmed((await call(api.POST("/me/two-step/confirm", { body }))).recoveryCodes);
    }),
  );
  const copySecret = async () => {
    try {
      await navigator.clipboard.writeText(enrolment.secret);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  };

  return (
    <div class="stack two-step-enrol">
      <p ref={intro} tabIndex={-1}>
        Scan this QR code with your authenticator app (1Password, Google Authenticator, Authy and
        the like).
      </p>
      <QrCode value={enrolment.uri} label="QR code to add Pressroom to your authenticator app" />
      <div>
        <p class="label-like">Or type this setup key into the app</p>
        <p class="two-step-secret">
          <code>{groupedSecret(enrolment.secret)}</code>
        </p>
        <button type="button" class="button small" onClick={copySecret}>
          {copy === "copied" ? "Copied" : "Copy key"}
        </button>
        <p class="hint" role="status">
          {copy === "copied" && "Copied to the clipboard."}
          {copy === "failed" && "Could not copy: select the key and press Ctrl+C (⌘C)."}
        </p>
      </div>
      <form class="stack" noValidate ref={form.formRef} onSubmit={confirm}>
        <Field
          label="Code from the app"
          hint={`6 digits. This key can be confirmed until ${exactTime(enrolment.expiresAt)}.`}
          error={form.errors.code}
        >
          {(p) => (
            <input
              {...p}
              required
              class="mono"
              inputMode="numeric"
              autocomplete="one-time-code"
              value={code}
              onInput={(e) => {
                setCode(e.currentTarget.value);
                form.clear("code");
              }}
            />
          )}
        </Field>
        {error && <ErrorMessage message={error} focus />}
        <div class="modal-actions">
          <button type="button" class="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? "Turning on…" : "Turn on"}
          </button>
        </div>
      </form>
    </div>
  );
}
