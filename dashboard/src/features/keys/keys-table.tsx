import { useId, useState } from "preact/hooks";
import type { ApiKey } from "../../api.js";
import { ChoiceGroup } from "../../components/choice-group.js";
import { KeyRow } from "./key-row.js";
import { KEYS_REFRESH_MS, matchesFilter, STATUS_FILTERS, type StatusFilter } from "./key-text.js";
import "./keys-table.css";

const FILTER_OPTIONS = STATUS_FILTERS.map((f) => ({ value: f, label: f }));
const COLUMNS = ["Name", "Key", "Status", "Expires", "Limit", "Created", "Last used"];

interface KeysTableProps {
  keys: readonly ApiKey[];
  /** The status shown; kept in the address by the screen (router.ts, `?status=`). */
  filter: StatusFilter;
  onFilterChange: (filter: StatusFilter) => void;
  workspaceName: string;
  now: number;
  /** What a key without its own limit gets. */
  defaultLimit: string;
  /** The owner's limit editor; undefined for members, who see limits only. */
  onEditLimit: ((key: ApiKey) => void) | undefined;
  /** Rolls `key`; undefined for the keys this user may not roll (a member: preview keys). */
  onRoll: (key: ApiKey) => (() => void) | undefined;
  onRevoke: (key: ApiKey) => void;
  onUsage: (key: ApiKey) => void;
}

type RowProps = Omit<KeysTableProps, "keys" | "workspaceName" | "filter" | "onFilterChange"> & {
  prefixOf: (id: string) => string;
};

/**
 * The workspace's keys, filtered by status (All, Active, Expired, Revoked). Under "All", revoked
 * keys — history, nothing left to do with them but read their usage — are folded under "Show N
 * revoked", so the keys that still work come first; the "Revoked" filter shows them at once, as
 * asked. The filter is in the address, so a reload or Back keeps it; the fold stays open (or
 * closed) while the screen is open.
 */
export function KeysTable(allProps: KeysTableProps) {
  const { keys, workspaceName, filter, onFilterChange, ...props } = allProps;
  const [showRevoked, setShowRevoked] = useState(false);
  const foldId = useId();
  const prefixes = new Map(keys.map((k) => [k.id, k.prefix]));
  const rowProps: RowProps = { ...props, prefixOf: (id) => prefixes.get(id) ?? id };
  const folding = filter === "All";
  const shown = keys.filter(
    (k) => matchesFilter(k, filter) && !(folding && k.status === "Revoked"),
  );
  const revoked = folding ? keys.filter((k) => k.status === "Revoked") : [];
  const emptyText = folding ? "No active or expired keys." : `No ${filter.toLowerCase()} keys.`;
  return (
    <>
      <ChoiceGroup
        label="Show keys"
        hideLabel
        name="key-status"
        options={FILTER_OPTIONS}
        value={filter}
        onChange={onFilterChange}
      />
      {shown.length === 0 && <p class="empty">{emptyText}</p>}
      {shown.length > 0 && (
        <KeyTable caption={`API keys of ${workspaceName}`} keys={shown} rowProps={rowProps} />
      )}
      {revoked.length > 0 && (
        <div class="revoked-fold">
          <button
            type="button"
            class="button small disclosure"
            aria-expanded={showRevoked}
            aria-controls={foldId}
            onClick={() => setShowRevoked(!showRevoked)}
          >
            {showRevoked ? "Hide" : "Show"} {revoked.length} revoked
          </button>
          <div id={foldId} hidden={!showRevoked}>
            {showRevoked && (
              <KeyTable
                caption={`Revoked keys of ${workspaceName}`}
                keys={revoked}
                rowProps={rowProps}
              />
            )}
          </div>
        </div>
      )}
      <p class="hint last-used-hint">
        “Last used” can trail a key's newest request: the server writes it in batches, once per
        flush window (<code>LAST_USED_FLUSH_MS</code>, 1 second unless the server's operator changed
        it), and this page refreshes every {KEYS_REFRESH_MS / 1000} seconds.
      </p>
    </>
  );
}

function KeyTable(props: { caption: string; keys: readonly ApiKey[]; rowProps: RowProps }) {
  const { rowProps: r } = props;
  return (
    <table class="table keys-table">
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          {COLUMNS.map((h) => (
            <th scope="col" key={h}>
              {h}
            </th>
          ))}
          <th scope="col">
            <span class="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.keys.map((key) => (
          <KeyRow
            key={key.id}
            apiKey={key}
            now={r.now}
            prefixOf={r.prefixOf}
            defaultLimit={r.defaultLimit}
            onEditLimit={r.onEditLimit && (() => r.onEditLimit?.(key))}
            onRoll={r.onRoll(key)}
            onRevoke={() => r.onRevoke(key)}
            onUsage={() => r.onUsage(key)}
          />
        ))}
      </tbody>
    </table>
  );
}
