import type { WebhookEndpointWithSecret } from "../../api.js";
import { CopyOnceField } from "../../components/copy-once-field.js";
import { Modal } from "../../components/modal.js";

/** A signing secret (after an add or a rotation), shown once; it lives only in this dialog. */
export function ShowWebhookSecret({
  result,
  rotated,
  onClose,
}: {
  result: WebhookEndpointWithSecret;
  /** After a rotation: whether the previous secret keeps signing for 24 hours or was dropped. */
  rotated: "kept" | "dropped" | null;
  onClose: () => void;
}) {
  return (
    <Modal
      title="Copy the signing secret now"
      onClose={onClose}
      description={
        <p class="notice warning">
          <strong>This secret will not be shown again.</strong> Put it in your receiver's settings
          to verify the <code>webhook-signature</code> header (Standard Webhooks). If you lose it,
          rotate it.
          {rotated === "kept" &&
            " The previous secret keeps signing deliveries for 24 hours, so you can switch over."}
          {rotated === "dropped" &&
            " The previous secret no longer signs: deliveries carry only this one's signature."}
        </p>
      }
    >
      <CopyOnceField
        id="webhook-secret"
        label={`Signing secret of ${result.endpoint.url}`}
        value={result.secret}
        what="secret"
      />
      <div class="modal-actions">
        <button type="button" class="button" onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}
