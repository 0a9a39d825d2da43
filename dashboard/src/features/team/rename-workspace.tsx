import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { api, call, type Workspace } from "../../api.js";
import { Modal } from "../../components/modal.js";
import { NameForm } from "../../components/name-form.js";

interface RenameProps {
  workspace: Workspace;
  onRenamed: (workspace: Workspace) => void;
  onClose: () => void;
}

/** An owner renames the workspace (admin.yaml, renameWorkspace); its members see the new name. */
export function RenameWorkspaceDialog({ workspace, onRenamed, onClose }: RenameProps) {
  return (
    <Modal
      title={`Rename “${workspace.name}”`}
      onClose={onClose}
      description="Every member sees the new name. Its blogs, keys and links stay as they are."
    >
      <NameForm
        label="Workspace name"
        initial={workspace.name}
        maxLength={adminLimits.renameWorkspace.name.maxLength}
        emptyMessage="Name the workspace."
        submitLabel="Rename"
        busyLabel="Renaming…"
        onSubmit={async (name) =>
          onRenamed(
            await call(
              api.PATCH("/workspaces/{workspaceId}", {
                params: { path: { workspaceId: workspace.id } },
                body: { name },
              }),
            ),
          )
        }
        onCancel={onClose}
      />
    </Modal>
  );
}
