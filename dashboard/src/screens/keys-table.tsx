import { useState } from "preact/hooks";
import type { ApiKey } from "../api.js";
import { ChoiceGroup } from "../components/choice-group.js";
import { matchesFilter, STATUS_FILTERS, type StatusFilter } from "../key-text.js";
import { KeyRow } from "./key-row.js";

const FILTER_OPTIONS = STATUS_FILTERS.map((f) => ({ value: f, label: f }));
const COLUMNS = ["Name", "Key", "Status", "Expires", "Limit", "Created", "Last used"];

interface KeysTableProps {
  keys: readonly ApiKey[];
  workspaceName: string;
  now: number;
  /** What a key without its own limit gets. */
  defaultLimit: string;
  /** The owner's limit editor; undefined for members, who see limits only. */
  onEditLimit: ((key: ApiKey) => void) | undefined;
  onRoll: (key: ApiKey) => void;
  onRevoke: (key: ApiKey) => void;
  onUsage: (key: ApiKey) => void;
}

/** The workspace's keys, filtered by status (All, Active, Expired, Revoked). */
export function KeysTable({ keys, workspaceName, now, onEditLimit, ...props }: KeysTableProps) {
  const [filter, setFilter] = useState<StatusFilter>("All");
  const prefixes = new Map(keys.map((k) => [k.id, k.prefix]));
  const prefixOf = (id: string) => prefixes.get(id) ?? id;
  const shown = keys.filter((k) => matchesFilter(k, filter));
  return (
    <>
      <ChoiceGroup
        label="Show keys"
        hideLabel
        name="key-status"
        options={FILTER_OPTIONS}
        value={filter}
        onChange={setFilter}
      />
      {shown.length === 0 && <p class="empty">No {filter.toLowerCase()} keys.</p>}
      {shown.length > 0 && (
        <table class="table keys-table">
          <caption class="visually-hidden">API keys of {workspaceName}</caption>
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
            {shown.map((key) => (
              <KeyRow
                key={key.id}
                apiKey={key}
                now={now}
                prefixOf={prefixOf}
                defaultLimit={props.defaultLimit}
                onEditLimit={onEditLimit && (() => onEditLimit(key))}
                onRoll={() => props.onRoll(key)}
                onRevoke={() => props.onRevoke(key)}
                onUsage={() => props.onUsage(key)}
              />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
