import { useEffect, useState } from "preact/hooks";
import { COPIED_MS } from "../../components/copy-once-field.js";
import { ShownOnceDialog } from "../../components/shown-once-dialog.js";
import { recoveryCodesFile } from "./two-step-text.js";
import "./two-step.css";

interface RecoveryCodesDialogProps {
  title: string;
  codes: readonly string[];
  /** The account's email, named in the downloaded file. */
  email: string;
  onClose: () => void;
}

const FILE_NAME = "pressroom-recovery-codes.txt";

/**
 * The 10 recovery codes, shown once (admin.yaml, confirmTwoStep and renewRecoveryCodes), in the
 * dialog that guards a new API key (`ShownOnceDialog`: Escape and stray clicks do nothing, a
 * double tap on "Done" never closes it, "Done" asks first unless the codes were copied or
 * downloaded). They live only in this dialog's state: the file is made in the page (a `blob:`
 * address that names nothing of them), never sent or logged.
 */
export function RecoveryCodesDialog({ title, codes, email, onClose }: RecoveryCodesDialogProps) {
  const all = codes.join("\n");
  const [kept, setKept] = useState<"" | "copied" | "downloaded" | "failed">("");
  useEffect(() => {
    if (kept !== "copied") return;
    const timer = setTimeout(() => setKept(""), COPIED_MS);
    return () => clearTimeout(timer);
  }, [kept]);
  return (
    <ShownOnceDialog
      title={title}
      secret={all}
      what="recovery codes"
      loss="Once this dialog closes nobody can see them again, you included; “New recovery codes” on the Account screen makes another set."
      onClose={onClose}
      description={
        <p class="notice warning">
          <strong>These codes will not be shown again.</strong> Each one signs you in once if you
          lose your authenticator app. Keep them somewhere safe, apart from your password.
        </p>
      }
    >
      {(copied) => {
        const copy = async () => {
          try {
            await navigator.clipboard.writeText(all);
            setKept("copied");
            copied();
          } catch {
            setKept("failed");
          }
        };
        const download = () => {
          const url = URL.createObjectURL(
            new Blob([recoveryCodesFile(codes, email)], { type: "text/plain" }),
          );
          const link = document.createElement("a");
          link.href = url;
          link.download = FILE_NAME;
          link.click();
          setTimeout(() => URL.revokeObjectURL(url), 0);
          setKept("downloaded");
          copied();
        };
        return (
          <>
            <ul class="recovery-codes mono" aria-label="Recovery codes">
              {codes.map((code) => (
                <li key={code}>{code}</li>
              ))}
            </ul>
            <div class="two-step-actions">
              <button type="button" class="button primary" autofocus onClick={copy}>
                {kept === "copied" ? "Copied" : "Copy codes"}
              </button>
              <button type="button" class="button" onClick={download}>
                Download .txt
              </button>
            </div>
            <p class="hint" role="status">
              {kept === "copied" && "Copied to the clipboard."}
              {kept === "downloaded" && `Saved as ${FILE_NAME}.`}
              {kept === "failed" &&
                "Could not copy: select the codes and press Ctrl+C (⌘C), or download them."}
            </p>
          </>
        );
      }}
    </ShownOnceDialog>
  );
}
