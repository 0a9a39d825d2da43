import { type ApiKey, api, call } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { KeyLimitDialog } from "./key-limit.js";
import { KeyUsageDialog } from "./key-usage.js";
import { MintKeyDialog } from "./mint-key.js";
import { RollKeyDialog } from "./roll-key.js";

/** The keys screen's one open dialog, if any, with the key it is about. */
export type KeyDialog =
  | { kind: "mint" }
  | { kind: "usage"; key: ApiKey }
  | { kind: "roll"; key: ApiKey }
  | { kind: "limit"; key: ApiKey }
  | { kind: "revoke"; key: ApiKey };

interface KeyDialogsProps {
  dialog: KeyDialog | null;
  workspaceId: string;
  /** Owners may mint preview keys too. */
  owner: boolean;
  /** The limit of keys without their own, as words, for the limit dialog. */
  defaultLimit: string;
  /** Something changed: `message` says what, and the keys are loaded again. */
  onChanged: (message: string) => Promise<void>;
  onRolled: (previous: ApiKey, successor: ApiKey) => void;
  /**
   * The dialog is done. `refocus`: what had the focus before it opened may be gone (a minted,
   * rolled or revoked key changes the table), so the screen puts the focus back if it fell.
   */
  onClose: (refocus: boolean) => void;
}

/** Whichever dialog the keys screen has open: mint, usage, roll, limit or revoke. */
export function KeyDialogs(props: KeyDialogsProps) {
  const { dialog, workspaceId, onChanged, onClose } = props;
  switch (dialog?.kind) {
    case "usage":
      return (
        <KeyUsageDialog
          workspaceId={workspaceId}
          apiKey={dialog.key}
          onClose={() => onClose(false)}
        />
      );
    case "mint":
      return (
        <MintKeyDialog
          workspaceId={workspaceId}
          canMintPreview={props.owner}
          onMinted={(minted) => void onChanged(`Key “${minted.name}” minted.`)}
          onClose={() => onClose(true)}
        />
      );
    case "roll":
      return (
        <RollKeyDialog
          workspaceId={workspaceId}
          apiKey={dialog.key}
          onRolled={(successor) => {
            props.onRolled(dialog.key, successor);
            void onChanged(
              `Key “${dialog.key.name}” rolled. Deploy the new key before the old one expires.`,
            );
          }}
          onClose={() => onClose(true)}
        />
      );
    case "limit":
      return (
        <KeyLimitDialog
          workspaceId={workspaceId}
          apiKey={dialog.key}
          fallback={props.defaultLimit}
          onSaved={(key) => void onChanged(`Limit of “${key.name}” saved.`)}
          onClose={() => onClose(false)}
        />
      );
    case "revoke":
      return (
        <RevokeDialog
          workspaceId={workspaceId}
          apiKey={dialog.key}
          onChanged={onChanged}
          onClose={onClose}
        />
      );
    default:
      return null;
  }
}

interface RevokeProps extends Pick<KeyDialogsProps, "workspaceId" | "onChanged" | "onClose"> {
  apiKey: ApiKey;
}

/** "Revoke key", confirmed first: a revoked key cannot be turned back on. */
function RevokeDialog({ workspaceId, apiKey: key, onChanged, onClose }: RevokeProps) {
  const revoke = async () => {
    await call(
      api.POST("/workspaces/{workspaceId}/keys/{keyId}/revoke", {
        params: { path: { workspaceId, keyId: key.id } },
      }),
    );
    onClose(false); // the changed table has not rendered yet: onChanged refocuses after it
    await onChanged(`Key “${key.name}” revoked. Requests that use it now get 401.`);
  };
  return (
    <ConfirmDialog
      title={`Revoke “${key.name}”?`}
      confirmLabel="Revoke key"
      onConfirm={revoke}
      onClose={() => onClose(true)}
    >
      <p>
        Requests with the key <code>{key.prefix}…</code> will get 401 from now on. A revoked key
        cannot be turned back on; mint a new one if you need access again.
      </p>
    </ConfirmDialog>
  );
}
