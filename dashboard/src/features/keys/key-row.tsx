import type { ApiKey } from "../../api.js";
import { MenuButton, type MenuItem } from "../../components/menu-button.js";
import { TimeAgo } from "../../components/status.js";
import { KeyExpiry } from "./key-expiry.js";
import { limitText } from "./key-text.js";

interface KeyRowProps {
  apiKey: ApiKey;
  now: number;
  /** The prefix of a key this one was rolled to or from, by id. */
  prefixOf: (id: string) => string;
  /** What a key without its own limit gets. */
  defaultLimit: string;
  /** Only the owner edits limits; undefined for members. */
  onEditLimit: (() => void) | undefined;
  /** Undefined when this user may not roll it (a member: a preview key is the owner's). */
  onRoll: (() => void) | undefined;
  onRevoke: () => void;
  /** Opens the key's usage chart; every key has one, revoked keys too. */
  onUsage: () => void;
}

/**
 * What can be done with a key, in its row's menu: every key's usage stays readable; an active key
 * can be rolled (once), limited (by the owner) and revoked.
 */
function actionsOf(props: KeyRowProps): MenuItem[] {
  const { apiKey: k } = props;
  const items: MenuItem[] = [{ label: "View usage", onSelect: props.onUsage }];
  if (k.status !== "Active") return items;
  if (!k.rolledTo && props.onRoll) items.push({ label: "Roll key", onSelect: props.onRoll });
  if (props.onEditLimit) items.push({ label: "Set limit", onSelect: props.onEditLimit });
  items.push({ label: "Revoke key", onSelect: props.onRevoke, danger: true });
  return items;
}

/** One key: name, prefix, status (and how it got there), expiry, limit, use, and its actions. */
export function KeyRow(props: KeyRowProps) {
  const { apiKey: k, now, prefixOf } = props;
  const active = k.status === "Active";
  return (
    <tr class={active ? undefined : "revoked"}>
      <th scope="row" data-label="Name">
        {k.name}
      </th>
      <td data-label="Key">
        <code class="prefix">{k.prefix}…</code>
        {k.kind === "preview" && <span class="badge pending">Preview</span>}
      </td>
      <td data-label="Status" class="status">
        <span class={`badge ${k.status.toLowerCase()}`}>{k.status}</span>
        {k.revokedAt && (
          <span class="sub">
            revoked <TimeAgo iso={k.revokedAt} now={now} />
            {k.revokedBy && ` by ${k.revokedBy.name}`}
          </span>
        )}
        {k.rolledTo && <span class="sub">rolled to {prefixOf(k.rolledTo)}…</span>}
        {k.rolledFrom && <span class="sub">replaces {prefixOf(k.rolledFrom)}…</span>}
      </td>
      <td data-label="Expires" class="expires">
        <KeyExpiry apiKey={k} now={now} />
      </td>
      <td data-label="Limit" class="limit">
        {k.rateLimit ? limitText(k.rateLimit) : <span class="muted">{props.defaultLimit}</span>}
      </td>
      <td data-label="Created">
        <TimeAgo iso={k.createdAt} now={now} />
        <span class="sub">{k.createdBy ? `by ${k.createdBy.name}` : "with the CLI"}</span>
      </td>
      <td data-label="Last used" class="last-used">
        {k.lastUsedAt ? <TimeAgo iso={k.lastUsedAt} now={now} /> : <span class="muted">never</span>}
      </td>
      <td class="actions">
        {/* Named after the key and its prefix: a rolled key and its successor share the name. */}
        <MenuButton
          label="Actions"
          context={`for ${k.name} (${k.prefix}…)`}
          items={actionsOf(props)}
        />
      </td>
    </tr>
  );
}
