import type { Workspace } from "../../api.js";
import { MenuButton, type MenuItem } from "../../components/menu-button.js";
import "./workspaces.css";

interface WorkspaceMenuProps {
  workspaces: readonly Workspace[];
  /** The workspace on screen, if any (marked checked in the menu). */
  current: Workspace | null;
  onSwitch: (workspaceId: string) => void;
  /** "Create workspace", the menu's last entry: opens the new-workspace dialog. */
  onCreate: () => void;
}

/**
 * The workspace switcher: the one MenuButton (keyboard, focus and type-ahead live there) whose
 * menu lists the workspaces, the current one checked, and "Create workspace" last.
 */
export function WorkspaceMenu({ workspaces, current, onSwitch, onCreate }: WorkspaceMenuProps) {
  const items: MenuItem[] = [
    ...workspaces.map((w) => ({
      id: w.id,
      label: w.name,
      checked: w.id === current?.id,
      onSelect: () => onSwitch(w.id),
    })),
    { label: "Create workspace", separated: workspaces.length > 0, onSelect: onCreate },
  ];
  return (
    <MenuButton
      class="workspace-switcher"
      lead="Workspace: "
      label={current?.name ?? "Choose a workspace"}
      menuLabel="Workspaces"
      items={items}
    />
  );
}
