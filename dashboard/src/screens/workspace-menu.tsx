import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Workspace } from "../api.js";

interface WorkspaceMenuProps {
  workspaces: readonly Workspace[];
  /** The workspace on screen, if any (marked checked in the menu). */
  current: Workspace | null;
  onSwitch: (workspaceId: string) => void;
  /** "Create workspace", the menu's last entry: opens the new-workspace dialog. */
  onCreate: () => void;
}

type Opening = "first" | "last" | null;

/**
 * The workspace switcher: a menu button (WAI-ARIA APG "menu button") whose menu lists the
 * workspaces, the current one checked, and "Create workspace" last. Enter, Space or ↓ open it on
 * the first entry, ↑ on the last; ↑ ↓ Home End and a first letter move; Enter or Space choose;
 * Escape closes it back to the button; Tab or a click outside close it.
 */
export function WorkspaceMenu({ workspaces, current, onSwitch, onCreate }: WorkspaceMenuProps) {
  const [open, setOpen] = useState<Opening>(null);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>("[role^=menuitem]") ?? [])];

  useLayoutEffect(() => {
    if (open === null) return;
    const all = items();
    (open === "first" ? all[0] : all.at(-1))?.focus();
  }, [open]);
  // A layout effect: listening from the moment the menu shows, not from the next frame.
  useLayoutEffect(() => {
    if (open === null) return;
    const outside = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(null);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open !== null]);

  /** Closes the menu with focus back on its button, then does what was chosen. */
  const choose = (then: () => void) => () => {
    setOpen(null);
    button.current?.focus();
    then();
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      all[(to + all.length) % all.length]?.focus();
    };
    if (event.key === "ArrowDown") move(at + 1);
    else if (event.key === "ArrowUp") move(at - 1);
    else if (event.key === "Home") move(0);
    else if (event.key === "End") move(all.length - 1);
    else if (event.key === "Escape") {
      event.preventDefault();
      setOpen(null);
      button.current?.focus();
    } else if (event.key === "Tab") setOpen(null);
    else if (event.key.length === 1 && /\S/.test(event.key)) {
      const key = event.key.toLowerCase();
      const order = [...all.slice(at + 1), ...all.slice(0, at + 1)];
      order.find((el) => el.textContent?.trim().toLowerCase().startsWith(key))?.focus();
    }
  };

  return (
    <div class="workspace-switcher" ref={box}>
      <button
        ref={button}
        type="button"
        class="button small workspace-button"
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={menuId}
        onClick={() => setOpen(open === null ? "first" : null)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(event.key === "ArrowDown" ? "first" : "last");
          }
        }}
      >
        <span class="visually-hidden">Workspace: </span>
        <span class="workspace-button-name">{current?.name ?? "Choose a workspace"}</span>
        <span class="chevron" aria-hidden="true" />
      </button>
      <div
        ref={menu}
        id={menuId}
        role="menu"
        aria-label="Workspaces"
        class="workspace-menu"
        hidden={open === null}
        onKeyDown={onMenuKey}
      >
        {workspaces.map((w) => (
          <button
            key={w.id}
            type="button"
            role="menuitemradio"
            aria-checked={w.id === current?.id}
            tabIndex={-1}
            onClick={choose(() => onSwitch(w.id))}
          >
            {w.name}
          </button>
        ))}
        {workspaces.length > 0 && <hr />}
        <button type="button" role="menuitem" tabIndex={-1} onClick={choose(onCreate)}>
          Create workspace
        </button>
      </div>
    </div>
  );
}
