import { useEffect, useRef, useState } from "preact/hooks";
import { adminLimits } from "../../../openapi/generated/admin-limits.js";
import { type ApiKey, api, call, type MintedKey } from "../api.js";
import { Modal } from "../components/modal.js";
import { NameForm } from "../components/name-form.js";

interface MintKeyProps {
  workspaceId: string;
  onMinted: (key: ApiKey) => void;
  onClose: () => void;
}

/** Names a new key, then shows its raw value once. It lives only in this dialog's state. */
export function MintKeyDialog({ workspaceId, onMinted, onClose }: MintKeyProps) {
  const [minted, setMinted] = useState<MintedKey | null>(null);
  const mint = async (name: string) => {
    const result = await call(
      api.POST("/workspaces/{workspaceId}/keys", {
        params: { path: { workspaceId } },
        body: { name },
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
      <NameForm
        label="Key name"
        hint="For example “Marketing website” or “iOS app backend”."
        autocomplete="off"
        maxLength={adminLimits.mintKey.name.maxLength}
        submitLabel="Mint key"
        busyLabel="Minting…"
        onSubmit={mint}
        onCancel={onClose}
      />
    </Modal>
  );
}

function ShowSecret({ minted, onClose }: { minted: MintedKey; onClose: () => void }) {
  const [copy, setCopy] = useState<"" | "copied" | "failed">("");
  const input = useRef<HTMLInputElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => copyButton.current?.focus(), []);

  const copySecret = async () => {
    try {
      await navigator.clipboard.writeText(minted.secret);
      setCopy("copied");
    } catch {
      input.current?.select();
      setCopy("failed");
    }
  };

  return (
    <Modal
      title="Copy your new key now"
      onClose={onClose}
      description={
        <p class="notice warning">
          <strong>This key will not be shown again.</strong> Pressroom keeps only a hash of it. Copy
          it into your server's secret settings now; if you lose it, revoke it and mint a new one.
        </p>
      }
    >
      <div class="field">
        <label for="minted-secret">API key “{minted.key.name}”</label>
        <div class="copy-row">
          <input
            id="minted-secret"
            ref={input}
            class="mono"
            readOnly
            value={minted.secret}
            spellcheck={false}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" class="button primary" ref={copyButton} onClick={copySecret}>
            {copy === "copied" ? "Copied" : "Copy"}
          </button>
        </div>
        <p class="hint" role="status">
          {copy === "copied" && "Copied to the clipboard."}
          {copy === "failed" &&
            "Could not copy: the key is selected, press Ctrl+C (⌘C) to copy it."}
        </p>
      </div>
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
