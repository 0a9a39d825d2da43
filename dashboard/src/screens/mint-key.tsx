import { useState } from "preact/hooks";
import { adminLimits } from "../../../openapi/generated/admin-limits.js";
import { type ApiKey, api, call, type MintedKey } from "../api.js";
import { CopyOnceField } from "../components/copy-once-field.js";
import { Field } from "../components/field.js";
import { Modal } from "../components/modal.js";
import { ErrorMessage } from "../components/status.js";
import { useSubmit } from "../hooks.js";
import { DEFAULT_EXPIRY, type ExpiryChoice, expiresAtOf, expiryDateRange } from "../key-text.js";
import { ExpiryChoiceField } from "./expiry-choice.js";

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
  const { busy, error, submit } = useSubmit();
  const send = submit(() => props.onSubmit(name.trim(), expiresAtOf(choice, date, Date.now())));
  return (
    <form class="stack" onSubmit={send}>
      <Field label="Key name" hint="For example “Marketing website” or “iOS app backend”.">
        {(p) => (
          <input
            {...p}
            required
            maxLength={adminLimits.mintKey.name.maxLength}
            autofocus
            autocomplete="off"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        )}
      </Field>
      <ExpiryChoiceField choice={choice} date={date} onChoice={setChoice} onDate={setDate} />
      {error && <ErrorMessage message={error} />}
      <div class="modal-actions">
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy || name.trim() === ""}>
          {busy ? "Minting…" : "Mint key"}
        </button>
      </div>
    </form>
  );
}

/** The raw key of a mint or a roll, shown once; it lives only in this dialog's state. */
export function ShowSecret({ minted, onClose }: { minted: MintedKey; onClose: () => void }) {
  return (
    <Modal
      title="Copy your new key now"
      onClose={onClose}
      dismissible={false}
      description={
        <p class="notice warning">
          <strong>This key will not be shown again.</strong> Pressroom keeps only a hash of it. Copy
          it into your server's secret settings now; if you lose it, revoke it and mint a new one.
        </p>
      }
    >
      <CopyOnceField
        id="minted-secret"
        label={`API key “${minted.key.name}”`}
        value={minted.secret}
        what="key"
      />
      <p class="hint">
        Send it from your server in the <code>x-api-key</code> header (or{" "}
        <code>Authorization: Bearer …</code>).
      </p>
      <div class="modal-actions">
        <button type="button" class="button" onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}
