import { useState } from "preact/hooks";
import { adminLimits } from "../../../openapi/generated/admin-limits.js";
import { api, call, type Workspace } from "../api.js";
import { Field } from "../components/field.js";
import { Modal } from "../components/modal.js";
import { ErrorMessage } from "../components/status.js";
import { useSubmit } from "../hooks.js";

const limits = adminLimits.createWorkspace;

interface NewWorkspaceProps {
  onCreated: (workspace: Workspace) => void;
  onClose: () => void;
}

export function NewWorkspaceDialog({ onCreated, onClose }: NewWorkspaceProps) {
  const [name, setName] = useState("");
  const { busy, error, submit } = useSubmit();
  const create = submit(async () => {
    onCreated(await call(api.POST("/workspaces", { body: { name: name.trim() } })));
  });
  return (
    <Modal
      title="New workspace"
      onClose={onClose}
      description="A workspace has its own blogs and its own API keys. You will be its owner."
    >
      <form class="stack" onSubmit={create}>
        <Field label="Workspace name">
          {(p) => (
            <input
              {...p}
              required
              maxLength={limits.name.maxLength}
              autofocus
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        {error && <ErrorMessage message={error} />}
        <div class="modal-actions">
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy || name.trim() === ""}>
            {busy ? "Creating…" : "Create workspace"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
