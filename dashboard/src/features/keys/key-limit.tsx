import { type ApiKey, api, call } from "../../api.js";
import { ChoiceGroup } from "../../components/choice-group.js";
import { useLimitForm } from "../../components/limit-form.js";
import { Modal } from "../../components/modal.js";
import { RateLimitFields } from "../../components/rate-limit-fields.js";
import { ErrorMessage } from "../../components/status.js";

interface KeyLimitProps {
  workspaceId: string;
  apiKey: ApiKey;
  /** What applies without a limit of its own ("1,200 per minute (server default)"). */
  fallback: string;
  onSaved: (key: ApiKey) => void;
  onClose: () => void;
}

const KINDS = [
  { value: "default", label: "The default" },
  { value: "own", label: "Its own limit" },
] as const;

/** The owner's editor of one key's rate limit: its own, or back to the workspace's default. */
export function KeyLimitDialog({ workspaceId, apiKey, fallback, onSaved, onClose }: KeyLimitProps) {
  const { kind, setKind, draft, setDraft, errors, busy, error, save } = useLimitForm(
    apiKey.rateLimit,
    "default",
    async (rateLimit) => {
      const key = await call(
        api.PATCH("/workspaces/{workspaceId}/keys/{keyId}", {
          params: { path: { workspaceId, keyId: apiKey.id } },
          body: { rateLimit },
        }),
      );
      onSaved(key);
      onClose();
    },
  );
  return (
    <Modal
      title={`Rate limit of “${apiKey.name}”`}
      onClose={onClose}
      description={`Without its own limit the key gets the workspace's default: ${fallback}.`}
    >
      <form class="stack" noValidate onSubmit={save}>
        <ChoiceGroup
          label="Limit"
          name="key-limit"
          options={KINDS}
          value={kind}
          onChange={setKind}
        />
        {kind === "own" && <RateLimitFields draft={draft} onChange={setDraft} errors={errors} />}
        {error && <ErrorMessage message={error} />}
        <div class="modal-actions">
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? "Saving…" : "Save limit"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
