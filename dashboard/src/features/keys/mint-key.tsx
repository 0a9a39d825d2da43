import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { type ApiKey, api, call, type MintedKey } from "../../api.js";
import { ChoiceGroup } from "../../components/choice-group.js";
import { Field } from "../../components/field.js";
import { type FieldErrors, focusFirstInvalid, isValid } from "../../components/form-check.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { checkExpiryDate, ExpiryChoiceField } from "./expiry-choice.js";
import { ShowSecret } from "./key-secret.js";
import { DEFAULT_EXPIRY, type ExpiryChoice, expiresAtOf, expiryDateRange } from "./key-text.js";

const NAME_MAX = adminLimits.mintKey.name.maxLength;
type KeyKind = ApiKey["kind"];

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
  /** The owner's dialog offers preview keys too (admin.yaml mintKey `kind`). */
  canMintPreview: boolean;
  onMinted: (key: ApiKey) => void;
  onClose: () => void;
}

/** Names a new key and picks its expiry, then shows its raw value once, in this dialog's state. */
export function MintKeyDialog({ workspaceId, canMintPreview, onMinted, onClose }: MintKeyProps) {
  const [minted, setMinted] = useState<MintedKey | null>(null);
  const mint = async (name: string, expiresAt: string | null, kind: KeyKind) => {
    const result = await call(
      api.POST("/workspaces/{workspaceId}/keys", {
        params: { path: { workspaceId } },
        body: { name, expiresAt, kind },
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
      <MintForm onSubmit={mint} onCancel={onClose} canMintPreview={canMintPreview} />
    </Modal>
  );
}

const KINDS = [
  { value: "live", label: "Live" },
  { value: "preview", label: "Preview" },
] as const;

function MintForm(props: {
  onSubmit: (name: string, expiresAt: string | null, kind: KeyKind) => Promise<void>;
  onCancel: () => void;
  canMintPreview: boolean;
}) {
  const [name, setName] = useState("");
  const [kind, setKind] = useState<KeyKind>("live");
  const [choice, setChoice] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [date, setDate] = useState(() => expiryDateRange(Date.now()).first);
  const [errors, setErrors] = useState<FieldErrors<"name" | "date">>({});
  const { busy, error, submit } = useSubmit();
  const send = submit(() =>
    props.onSubmit(name.trim(), expiresAtOf(choice, date, Date.now()), kind),
  );
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
      {props.canMintPreview && (
        <>
          <ChoiceGroup
            label="What it reads"
            name="key-kind"
            options={KINDS}
            value={kind}
            onChange={setKind}
          />
          <p class="hint">
            {kind === "live"
              ? "Released blogs, at /api/consumer: for your live site."
              : "Drafts and pending changes as they would be published, at /api/preview only: for a preview deployment of your site. Anyone with it reads unpublished text."}
          </p>
        </>
      )}
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
