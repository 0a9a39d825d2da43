import { useRef, useState } from "preact/hooks";
import { api, call, type Me, send, type TwoStepEnrolment } from "../../api.js";
import { Modal } from "../../components/modal.js";
import { PasswordStep } from "./password-step.js";
import { RecoveryCodesDialog } from "./recovery-codes-dialog.js";
import { EnrolStep } from "./two-step-enrol.js";
import { codesLeftText } from "./two-step-text.js";
import "./two-step.css";

type Dialog =
  | { kind: "turnOn"; enrolment: TwoStepEnrolment | null }
  | { kind: "renew" }
  | { kind: "turnOff" }
  | { kind: "codes"; title: string; codes: string[] };

interface TwoStepProps {
  me: Me;
  onMeChange: (me: Me) => void;
}

/**
 * Two-step sign-in on the Account screen (admin.yaml, startTwoStep, confirmTwoStep,
 * renewRecoveryCodes, turnOffTwoStep; README, "Your account"). Off: "Turn on" asks the password,
 * shows the secret (QR code and text) and turns it on with the app's code; the recovery codes
 * then show once. On: how many recovery codes are left, new ones (password, shown once), and
 * "Turn off" (password). Each change updates the account the dashboard holds, so the
 * workspaces' owner rule (shell.tsx) follows at once.
 */
export function TwoStep({ me, onMeChange }: TwoStepProps) {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [notice, setNotice] = useState("");
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const { enabled, recoveryCodesLeft } = me.twoStep;
  /** What the server now holds (admin.yaml: on or renewed, 10 codes; off, none). */
  const twoStepNow = (on: boolean) =>
    onMeChange({ ...me, twoStep: { enabled: on, recoveryCodesLeft: on ? 10 : 0 } });
  /**
   * A dialog's opener ("Turn on", "Turn off") is gone once the state changes: the focus goes to
   * the notice that says what happened, never to <body>.
   */
  const close = () => {
    setDialog(null);
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if ((active && active !== document.body) || document.querySelector("dialog[open]")) return;
      noticeRef.current?.focus();
    });
  };

  return (
    <section class="card" aria-labelledby="two-step-title">
      <h2 id="two-step-title">Two-step sign-in</h2>
      <p class="two-step-status">
        {enabled ? (
          <>
            <span class="badge active">On</span> · {codesLeftText(recoveryCodesLeft)}
          </>
        ) : (
          <span class="badge">Off</span>
        )}
      </p>
      <p>
        {enabled
          ? "Signing in asks for your password, then the code your authenticator app shows (or a recovery code)."
          : "Ask for a code from an authenticator app on your phone after your password, so a stolen password alone cannot sign in."}
      </p>
      <div role="status">
        {notice && (
          <p class="notice success" ref={noticeRef} tabIndex={-1}>
            {notice}
          </p>
        )}
      </div>
      <div class="two-step-actions">
        {enabled ? (
          <>
            <button type="button" class="button" onClick={() => setDialog({ kind: "renew" })}>
              New recovery codes
            </button>
            <button
              type="button"
              class="button danger-outline"
              onClick={() => setDialog({ kind: "turnOff" })}
            >
              Turn off
            </button>
          </>
        ) : (
          <button
            type="button"
            class="button primary"
            onClick={() => setDialog({ kind: "turnOn", enrolment: null })}
          >
            Turn on
          </button>
        )}
      </div>
      {dialog?.kind === "turnOn" && (
        <Modal
          title="Turn on two-step sign-in"
          onClose={close}
          description={
            dialog.enrolment === null
              ? "First your password: then a QR code for your authenticator app."
              : "Add Pressroom to your authenticator app, then enter the code it shows."
          }
        >
          {dialog.enrolment === null ? (
            <PasswordStep
              hint="Asked every time: a browser left signed in is not enough."
              submitLabel="Continue"
              busyLabel="Checking…"
              onCancel={close}
              onSubmit={async (currentPassword) => {
                const enrolment = await call(
                  api.POST("/me/two-step", { body: { currentPassword } }),
                );
                setDialog({ kind: "turnOn", enrolment });
              }}
            />
          ) : (
            <EnrolStep
              enrolment={dialog.enrolment}
              onCancel={close}
              onConfirmed={(codes) => {
                setDialog({ kind: "codes", title: "Save your recovery codes", codes });
                setNotice("Two-step sign-in is on. Signing in now asks for a code.");
                twoStepNow(true);
              }}
            />
          )}
        </Modal>
      )}
      {dialog?.kind === "renew" && (
        <Modal
          title="New recovery codes"
          onClose={close}
          description="Makes 10 new recovery codes. The ones you have now stop working at once."
        >
          <PasswordStep
            hint="Asked every time: a browser left signed in is not enough."
            submitLabel="Make new codes"
            busyLabel="Making…"
            onCancel={close}
            onSubmit={async (currentPassword) => {
              const { recoveryCodes } = await call(
                api.POST("/me/two-step/recovery-codes", { body: { currentPassword } }),
              );
              setDialog({
                kind: "codes",
                title: "Save your new recovery codes",
                codes: recoveryCodes,
              });
              setNotice("New recovery codes made. The old ones no longer work.");
              twoStepNow(true);
            }}
          />
        </Modal>
      )}
      {dialog?.kind === "turnOff" && (
        <Modal
          title="Turn off two-step sign-in?"
          onClose={close}
          description="Signing in will ask for your password only. Your authenticator app's codes and your recovery codes stop working."
        >
          <PasswordStep
            hint="Asked every time: a browser left signed in is not enough."
            submitLabel="Turn off"
            busyLabel="Turning off…"
            danger
            onCancel={close}
            onSubmit={async (currentPassword) => {
              await send(api.POST("/me/two-step/turn-off", { body: { currentPassword } }));
              twoStepNow(false);
              setNotice("Two-step sign-in is off. Signing in asks for your password only.");
              close();
            }}
          />
        </Modal>
      )}
      {dialog?.kind === "codes" && (
        <RecoveryCodesDialog
          title={dialog.title}
          codes={dialog.codes}
          email={me.user.email}
          onClose={close}
        />
      )}
    </section>
  );
}
