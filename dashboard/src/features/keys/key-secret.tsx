import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { MintedKey } from "../../api.js";
import { CopyOnceField } from "../../components/copy-once-field.js";
import { Modal } from "../../components/modal.js";
import { consumerListUrl, curlExample, envLine } from "./key-text.js";

/**
 * The raw key of a mint or a roll, shown once (GitHub and Unkey do the same): it lives only in
 * this dialog's state — never in an address, a log or storage. The dialog is hard to lose:
 * Escape and backdrop clicks do nothing, and "Done" asks first unless something was copied.
 * Besides the key it offers the two lines people paste next: an environment variable and a curl
 * call of the consumer API, each with its own Copy.
 */
export function ShowSecret({ minted, onClose }: { minted: MintedKey; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);
  const stay = useRef<HTMLButtonElement>(null);
  const fields = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (asking) stay.current?.focus();
  }, [asking]);
  const markCopied = () => {
    setCopied(true);
    setAsking(false);
  };
  // A copy made with Ctrl+C counts when what it copied holds the key (not a label or the hint).
  const onCopy = (event: ClipboardEvent) => {
    const target = event.target;
    const selected =
      target instanceof HTMLInputElement
        ? target.value.slice(target.selectionStart ?? 0, target.selectionEnd ?? 0)
        : (document.getSelection()?.toString() ?? "");
    if (selected.includes(minted.secret)) markCopied();
  };
  const done = () => (copied ? onClose() : setAsking(true));
  const goBack = () => {
    fields.current?.querySelector("button")?.focus(); // the key's own Copy
    setAsking(false);
  };
  const url = consumerListUrl(window.location.origin, minted.key.kind);

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
      {/* A copy made with Ctrl+C (after a refused clipboard selected the text) counts too. */}
      <div class="stack key-secret" ref={fields} onCopy={onCopy}>
        <CopyOnceField
          id="minted-secret"
          label={`API key “${minted.key.name}”`}
          value={minted.secret}
          what="key"
          onCopied={markCopied}
        />
        <CopyOnceField
          id="minted-env"
          label="As an environment variable"
          value={envLine(minted.secret)}
          what="line"
          focus={false}
          onCopied={markCopied}
        />
        <CopyOnceField
          id="minted-curl"
          label="Try it with curl"
          value={curlExample(minted.secret, url)}
          what="command"
          focus={false}
          onCopied={markCopied}
        />
        <p class="hint">
          Send it from your server in the <code>x-api-key</code> header (or{" "}
          <code>Authorization: Bearer …</code>).
          {minted.key.kind === "preview" && (
            <>
              {" "}
              A preview key reads drafts and pending changes, under <code>/api/preview</code> only.
            </>
          )}
        </p>
      </div>
      {asking ? (
        <div class="notice warning confirm-close" role="alert">
          <p>
            <strong>You have not copied the key.</strong> Once this dialog closes nobody can see it
            again, you included.
          </p>
          <div class="modal-actions">
            <button type="button" class="button danger-outline" onClick={onClose}>
              Close without copying
            </button>
            <button type="button" class="button primary" ref={stay} onClick={goBack}>
              Go back and copy
            </button>
          </div>
        </div>
      ) : (
        <div class="modal-actions">
          <button type="button" class="button" onClick={done}>
            Done
          </button>
        </div>
      )}
    </Modal>
  );
}
