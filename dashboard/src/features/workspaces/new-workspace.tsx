import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { api, call, type Workspace } from "../../api.js";
import { Modal } from "../../components/modal.js";
import { NameForm } from "../../components/name-form.js";

interface NewWorkspaceProps {
  onCreated: (workspace: Workspace) => void;
  onClose: () => void;
}

export function NewWorkspaceDialog({ onCreated, onClose }: NewWorkspaceProps) {
  return (
    <Modal
      title="New workspace"
      onClose={onClose}
      description="A workspace has its own blogs and its own API keys. You will be its owner."
    >
      <NameForm
        label="Workspace name"
        maxLength={adminLimits.createWorkspace.name.maxLength}
        emptyMessage="Name the workspace."
        submitLabel="Create workspace"
        busyLabel="Creating…"
        onSubmit={async (name) =>
          onCreated(await call(api.POST("/workspaces", { body: { name } })))
        }
        onCancel={onClose}
      />
    </Modal>
  );
}
