import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { type ApiKey, api, call, type MintedKey } from "../../api.js";
import { Field } from "../../components/field.js";
import { type FieldErrors, focusFirstInvalid, isValid } from "../../components/form-check.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { checkExpiryDate, ExpiryChoiceField } from "./expiry-choice.js";
import { ShowSecret } from "./key-secret.js";
import { DEFAULT_EXPIRY, type ExpiryChoice, expiresAtOf, expiryDateRange } from "./key-text.js";

const NAME_MAX = adminLimits.mintKey.name.maxLength;

/** The mint form's own checks, on submit; the server checks again. */
export function checkMint(
  name: string,
  choice: ExpiryChoice,
  date: string,
  now: number,
): FieldErrors<"name" | "date"> {
  const errors: FieldErrors<"name" | "date"> = {};
  if (name.trim() === "") errors.name = "Enter a name for the key.";
  else if (name.trim().length > NAME_MAX) errors.name = `Use at most ${NAME_MAX} characters.`;
  if (choice === "date") {
    const problem = checkExpiryDate(date, now);
    if (problem) errors.date = problem;
  }
  return errors;
}

interface MintKeyProps {
  workspaceId: string;
  onMinted: (key: ApiKey) => void;
  onClose: () => void;
}

/** Names a new key and picks its expiry, then shows its raw value once, in this dialog's state. */
export function MintKeyDialog({ workspaceId, onMinted, onClose }: MintKeyProps) {
  const [minted, setMinted] = useState<MintedKey | null>(null);
  const mint = async (name: string, expiresAt: string | null) => {
    const result = await call(
      api.POST("/workspaces/{workspaceId}/keys", {
        params: { path: { workspaceId } },
        body: { name, expiresAt },
      }),
    );
    setMinted(result);
    onMinted(result.key);
  };

  if (minted) return <ShowSecret minted={minted} onClose={onClose} />;
  return (
    <Modal
      title="Mint an API key"
      onClose={onClose}
      description="Name it after the website or app that will use it, so you know what to revoke."
    >
      <MintForm onSubmit={mint} onCancel={onClose} />
    </Modal>
  );
}

function MintForm(props: {
  onSubmit: (name: string, expiresAt: string | null) => Promise<void>;
  onCancel: () => void;
}) {
  const [name, setName] = useState("");
  const [choice, setChoice] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [date, setDate] = useState(() => expiryDateRange(Date.now()).first);
  const [errors, setErrors] = useState<FieldErrors<"name" | "date">>({});
  const { busy, error, submit } = useSubmit();
  const send = submit(() => props.onSubmit(name.trim(), expiresAtOf(choice, date, Date.now())));
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = checkMint(name, choice, date, Date.now());
    setErrors(found);
    if (isValid(found)) send(event);
    else focusFirstInvalid(event.currentTarget as HTMLFormElement);
  };
  return (
    <form class="stack" noValidate onSubmit={onSubmit}>
      <Field
        label="Key name"
        hint="For example “Marketing website” or “iOS app backend”."
        error={errors.name}
      >
        {(p) => (
          <input
            {...p}
            required
            maxLength={NAME_MAX}
            autofocus
            autocomplete="off"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        )}
      </Field>
      <ExpiryChoiceField
        choice={choice}
        date={date}
        dateError={errors.date}
        onChoice={setChoice}
        onDate={setDate}
      />
      {error && <ErrorMessage message={error} />}
      <div class="modal-actions">
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy}>
          {busy ? "Minting…" : "Mint key"}
        </button>
      </div>
    </form>
  );
}
