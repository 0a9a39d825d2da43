import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import "./menu-button.css";

export interface MenuItem {
  label: string;
  onSelect: () => void;
  /** Destructive (revoke): shown in the danger colour. */
  danger?: boolean;
  /** One of a set where one is current (a workspace): a `menuitemradio` with `aria-checked`. */
  checked?: boolean;
  /** Draws a separator above the item (before a trailing "Create workspace"). */
  separated?: boolean;
  /** A key for the list when labels may repeat (two workspaces of one name). */
  id?: string;
}

interface MenuButtonProps {
  /** What the button shows ("Actions", the current workspace's name). */
  label: string;
  /** Read before the label by screen readers only ("Workspace: "). */
  lead?: string;
  /** Read after the label by screen readers only, to name the row ("for Website"). */
  context?: string;
  /** The menu's accessible name; the button's whole text by default. */
  menuLabel?: string;
  /** An extra class on the wrapper, for a menu styled apart (the header's switcher). */
  class?: string;
  items: readonly MenuItem[];
}

/**
 * A WAI-ARIA menu button (APG "Actions Menu Button"): the button has `aria-haspopup="menu"` and
 * `aria-expanded`; Enter, Space, a click or ArrowDown open the menu on its first item, ArrowUp on
 * its last. In the menu the arrows (wrapping), Home, End and a first letter move, Enter or Space
 * choose; Escape closes it and puts the focus back on the button; Tab or a click elsewhere
 * closes it.
 *
 * The opened menu's item takes the focus in a layout effect, in the same task as the render, so
 * a key pressed right after the one that opened it (ArrowUp, then Enter) reaches the item.
 *
 * Choosing an item first gives the focus back to the button, so a dialog the item opens returns
 * the focus there when it closes (the item itself is gone by then).
 */
export function MenuButton(props: MenuButtonProps) {
  const { label, lead, context, items } = props;
  const [open, setOpen] = useState<null | "first" | "last">(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const menuItems = () => [
    ...(menu.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []),
  ];

  // A layout effect: listening from the moment the menu shows, not from the next frame.
  useLayoutEffect(() => {
    if (open === null) return;
    const all = menuItems();
    (open === "first" ? all[0] : all.at(-1))?.focus();
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(null);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const close = () => {
    button.current?.focus();
    setOpen(null);
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const all = menuItems();
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
      event.stopPropagation(); // a menu inside a dialog closes alone
      close();
    } else if (event.key === "Tab")
      setOpen(null); // the focus moves on as Tab takes it
    else if (event.key.length === 1 && /\S/.test(event.key)) {
      // Type-ahead: the next item, after the focused one and wrapping, starting with the letter.
      const key = event.key.toLowerCase();
      const order = [...all.slice(at + 1), ...all.slice(0, at + 1)];
      order.find((el) => el.textContent?.trim().toLowerCase().startsWith(key))?.focus();
    }
  };

  return (
    <div class={props.class ? `menu-button ${props.class}` : "menu-button"}>
      <button
        type="button"
        class="button small"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={open !== null}
        aria-controls={open !== null ? menuId : undefined}
        onClick={() => setOpen(open === null ? "first" : null)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            setOpen(event.key === "ArrowDown" ? "first" : "last");
          }
        }}
      >
        {lead && <span class="visually-hidden">{lead}</span>}
        <span class="menu-button-label">{label}</span>
        {context && <span class="visually-hidden"> {context}</span>}
        <span class="menu-caret" aria-hidden="true" />
      </button>
      {open !== null && (
        <div
          id={menuId}
          ref={menu}
          role="menu"
          class="menu"
          aria-label={props.menuLabel ?? (context ? `${label} ${context}` : label)}
          onKeyDown={onMenuKey}
        >
          {items.map((item) => (
            <MenuEntry key={item.id ?? item.label} item={item} close={close} />
          ))}
        </div>
      )}
    </div>
  );
}

function MenuEntry({ item, close }: { item: MenuItem; close: () => void }) {
  const onClick = () => {
    close();
    item.onSelect();
  };
  const className = item.danger ? "menu-item danger" : "menu-item";
  // Two spellings, not one with a computed role: the linter checks aria-checked against the role.
  return (
    <>
      {item.separated && <hr />}
      {item.checked === undefined ? (
        <button type="button" role="menuitem" tabIndex={-1} class={className} onClick={onClick}>
          {item.label}
        </button>
      ) : (
        <button
          type="button"
          role="menuitemradio"
          aria-checked={item.checked}
          tabIndex={-1}
          class={className}
          onClick={onClick}
        >
          {item.label}
        </button>
      )}
    </>
  );
}
