import {
  api,
  call,
  send,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { EndpointDialog } from "./webhook-form.js";
import { RotateSecretDialog } from "./webhook-rotate.js";
import { ShowWebhookSecret } from "./webhook-secret.js";

/** The webhooks screen's one open dialog, if any, with the endpoint it is about. */
export type WebhookDialog =
  | { kind: "add" }
  | { kind: "edit"; endpoint: WebhookEndpoint }
  | { kind: "rotate"; endpoint: WebhookEndpoint }
  | { kind: "delete"; endpoint: WebhookEndpoint }
  | { kind: "secret"; result: WebhookEndpointWithSecret; rotated: "kept" | "dropped" | null };

interface WebhookDialogsProps {
  dialog: WebhookDialog | null;
  workspaceId: string;
  /** Opens another dialog (the new signing secret after an add or a rotation), or none. */
  onDialog: (dialog: WebhookDialog | null) => void;
  /** Something changed: the list is loaded again, then `message` says what. */
  onChanged: (message: string) => Promise<void>;
}

/** Whichever dialog the webhooks screen has open: add, edit, secret, rotate or delete. */
export function WebhookDialogs({ dialog, workspaceId, onDialog, onChanged }: WebhookDialogsProps) {
  const rotate = async (e: WebhookEndpoint, dropPrevious: boolean) => {
    const result = await call(
      api.POST("/workspaces/{workspaceId}/webhooks/{endpointId}/rotate-secret", {
        params: { path: { workspaceId, endpointId: e.id } },
        body: { dropPrevious },
      }),
    );
    onDialog({ kind: "secret", result, rotated: dropPrevious ? "dropped" : "kept" });
    await onChanged(
      dropPrevious
        ? `New signing secret for ${e.url}; the old one no longer signs.`
        : `New signing secret for ${e.url}.`,
    );
  };
  const remove = async (e: WebhookEndpoint) => {
    await send(
      api.DELETE("/workspaces/{workspaceId}/webhooks/{endpointId}", {
        params: { path: { workspaceId, endpointId: e.id } },
      }),
    );
    onDialog(null);
    await onChanged(`${e.url} deleted, with its delivery log.`);
  };

  return (
    <>
      {dialog?.kind === "add" && (
        <EndpointDialog
          workspaceId={workspaceId}
          onCreated={(result) => {
            onDialog({ kind: "secret", result, rotated: null });
            void onChanged(`Endpoint ${result.endpoint.url} added.`);
          }}
          onSaved={() => {}}
          onClose={() => onDialog(null)}
        />
      )}
      {dialog?.kind === "edit" && (
        <EndpointDialog
          workspaceId={workspaceId}
          endpoint={dialog.endpoint}
          onCreated={() => {}}
          onSaved={(e) => {
            onDialog(null);
            void onChanged(`Endpoint ${e.url} saved.`);
          }}
          onClose={() => onDialog(null)}
        />
      )}
      {dialog?.kind === "secret" && (
        <ShowWebhookSecret
          result={dialog.result}
          rotated={dialog.rotated}
          onClose={() => onDialog(null)}
        />
      )}
      {dialog?.kind === "rotate" && (
        <RotateSecretDialog
          endpoint={dialog.endpoint}
          onRotate={(dropPrevious) => rotate(dialog.endpoint, dropPrevious)}
          onClose={() => onDialog(null)}
        />
      )}
      {dialog?.kind === "delete" && (
        <ConfirmDialog
          title="Delete this endpoint?"
          confirmLabel="Delete endpoint"
          onConfirm={() => remove(dialog.endpoint)}
          onClose={() => onDialog(null)}
        >
          <p>
            Nothing more is sent to <span class="mono">{dialog.endpoint.url}</span>, deliveries
            still pending are dropped, and its delivery log is deleted.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
