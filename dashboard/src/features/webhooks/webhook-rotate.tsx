import type { WebhookEndpoint } from "../../api.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";

/**
 * "Rotate the signing secret?" with two ways to do it (admin.yaml, rotateWebhookSecret): keep the
 * old secret signing for 24 hours so the receiver can switch, or — for a secret that leaked —
 * drop it at once. Cancel has the focus, so Enter is harmless.
 */
export function RotateSecretDialog({
  endpoint,
  onRotate,
  onClose,
}: {
  endpoint: WebhookEndpoint;
  /** Rotates; the dialog stays open, with the error, if it throws. */
  onRotate: (dropPrevious: boolean) => Promise<void>;
  onClose: () => void;
}) {
  const { busy, error, submit } = useSubmit();
  const keep = submit(() => onRotate(false));
  const drop = submit(() => onRotate(true));
  return (
    <Modal
      title="Rotate the signing secret?"
      onClose={onClose}
      description={
        <>
          <p>
            <span class="mono">{endpoint.url}</span> gets a new secret, shown once. For 24 hours
            deliveries are signed with both, so your receiver can switch without missing one.
          </p>
          <p>
            If the old secret leaked, drop it now instead: from now on deliveries carry only the new
            signature, and your receiver rejects them until it has the new secret.
          </p>
        </>
      }
    >
      {error && <ErrorMessage message={error} />}
      <div class="modal-actions">
        <button type="button" class="button" onClick={onClose} autofocus>
          Cancel
        </button>
        <button type="button" class="button danger" onClick={drop} aria-disabled={busy}>
          Rotate and drop the old secret now
        </button>
        <button type="button" class="button danger" onClick={keep} aria-disabled={busy}>
          {busy ? "Working…" : "Rotate secret"}
        </button>
      </div>
    </Modal>
  );
}
