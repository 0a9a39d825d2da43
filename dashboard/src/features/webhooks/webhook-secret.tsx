import type { WebhookEndpointWithSecret } from "../../api.js";
import { CopyOnceField } from "../../components/copy-once-field.js";
import { ShownOnceDialog } from "../../components/shown-once-dialog.js";

/**
 * A signing secret (after an add or a rotation, `webhook-rotate.tsx`), shown once; it lives only
 * in this dialog, which is hard to lose (`ShownOnceDialog`: Escape and stray clicks do nothing,
 * "Done" asks first unless it was copied).
 */
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
    <ShownOnceDialog
      title="Copy the signing secret now"
      secret={result.secret}
      what="secret"
      loss="Once this dialog closes nobody can see it again, you included: you would have to rotate it."
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
      {(copied) => (
        <CopyOnceField
          id="webhook-secret"
          label={`Signing secret of ${result.endpoint.url}`}
          value={result.secret}
          what="secret"
          onCopied={copied}
        />
      )}
    </ShownOnceDialog>
  );
}
