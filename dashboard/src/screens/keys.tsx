import { useCallback, useEffect, useState } from "preact/hooks";
import { type ApiKey, api, call, messageOf, type Workspace } from "../api.js";
import { ConfirmDialog } from "../components/confirm.js";
import { ErrorMessage, Loading, TimeAgo } from "../components/status.js";
import { useTitle, useVisibleInterval } from "../hooks.js";
import { KeyUsageDialog, WorkspaceUsage } from "./key-usage.js";
import { MintKeyDialog } from "./mint-key.js";

/** How often the table refreshes while visible, so "last used" moves without a reload. */
const REFRESH_MS = 10_000;

const byStatusThenNewest = (a: ApiKey, b: ApiKey): number =>
  a.status === b.status ? b.createdAt.localeCompare(a.createdAt) : a.status === "Active" ? -1 : 1;

export function Keys({ workspace }: { workspace: Workspace }) {
  useTitle(`API keys · ${workspace.name}`);
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [minting, setMinting] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [notice, setNotice] = useState("");
  const [usageOf, setUsageOf] = useState<ApiKey | null>(null);
  const [loads, setLoads] = useState(0);

  const load = useCallback(async () => {
    try {
      const { data } = await call(
        api.GET("/workspaces/{workspaceId}/keys", {
          params: { path: { workspaceId: workspace.id } },
        }),
      );
      setKeys([...data].sort(byStatusThenNewest));
      setLoads((n) => n + 1);
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [workspace.id]);
  useEffect(() => {
    void load();
  }, [load]);
  useVisibleInterval(load, REFRESH_MS);
  const now = Date.now();

  const revoke = async (key: ApiKey) => {
    await call(
      api.POST("/workspaces/{workspaceId}/keys/{keyId}/revoke", {
        params: { path: { workspaceId: workspace.id, keyId: key.id } },
      }),
    );
    setRevoking(null);
    setNotice(`Key “${key.name}” revoked. Requests that use it now get 401.`);
    await load();
  };

  return (
    <>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>API keys</h1>
          <p class="lead">
            Keys let your servers read the released blogs of <strong>{workspace.name}</strong>{" "}
            through the consumer API. Treat them like passwords: keep them on a server, never in
            browser or mobile app code.
          </p>
        </div>
        <button type="button" class="button primary" onClick={() => setMinting(true)}>
          Mint key
        </button>
      </div>
      <div role="status">{notice && <p class="notice success">{notice}</p>}</div>
      {error && (
        <ErrorMessage message={keys ? `Could not refresh: ${error}` : error} onRetry={load} />
      )}
      {keys === null && !error && <Loading label="Loading keys…" />}
      {keys?.length === 0 && (
        <div class="empty">
          <p>No keys yet. Mint one for each website or app that reads your blogs.</p>
        </div>
      )}
      {keys && keys.length > 0 && (
        <table class="table keys-table">
          <caption class="visually-hidden">API keys of {workspace.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <KeyRow
                key={key.id}
                apiKey={key}
                now={now}
                onRevoke={() => setRevoking(key)}
                onUsage={() => setUsageOf(key)}
              />
            ))}
          </tbody>
        </table>
      )}
      <WorkspaceUsage workspaceId={workspace.id} version={loads} />
      <RotationGuide />
      {usageOf && (
        <KeyUsageDialog
          workspaceId={workspace.id}
          apiKey={usageOf}
          onClose={() => setUsageOf(null)}
        />
      )}
      {minting && (
        <MintKeyDialog
          workspaceId={workspace.id}
          onMinted={(minted) => {
            setNotice(`Key “${minted.name}” minted.`);
            void load();
          }}
          onClose={() => setMinting(false)}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          confirmLabel="Revoke key"
          onConfirm={() => revoke(revoking)}
          onClose={() => setRevoking(null)}
        >
          <p>
            Requests with the key <code>{revoking.prefix}…</code> will get 401 from now on. A
            revoked key cannot be turned back on; mint a new one if you need access again.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

interface KeyRowProps {
  apiKey: ApiKey;
  now: number;
  onRevoke: () => void;
  onUsage: () => void;
}

function KeyRow({ apiKey: k, now, onRevoke, onUsage }: KeyRowProps) {
  const active = k.status === "Active";
  return (
    <tr class={active ? undefined : "revoked"}>
      <th scope="row" data-label="Name">
        {k.name}
      </th>
      <td data-label="Key">
        <code class="prefix">{k.prefix}…</code>
      </td>
      <td data-label="Status" class="status">
        <span class={active ? "badge active" : "badge revoked"}>{k.status}</span>
        {k.revokedAt && (
          <span class="sub">
            revoked <TimeAgo iso={k.revokedAt} now={now} />
            {k.revokedBy && ` by ${k.revokedBy.name}`}
          </span>
        )}
      </td>
      <td data-label="Created">
        <TimeAgo iso={k.createdAt} now={now} />
        <span class="sub">{k.createdBy ? `by ${k.createdBy.name}` : "with the CLI"}</span>
      </td>
      <td data-label="Last used" class="last-used">
        {k.lastUsedAt ? <TimeAgo iso={k.lastUsedAt} now={now} /> : <span class="muted">never</span>}
      </td>
      <td class="actions">
        <button type="button" class="button small" onClick={onUsage}>
          Usage<span class="visually-hidden"> of {k.name}</span>
        </button>
        {active && (
          <button type="button" class="button small danger-outline" onClick={onRevoke}>
            Revoke<span class="visually-hidden"> {k.name}</span>
          </button>
        )}
      </td>
    </tr>
  );
}

function RotationGuide() {
  return (
    <section class="card guide" aria-labelledby="rotation-title">
      <h2 id="rotation-title">Rotating a key without downtime</h2>
      <ol>
        <li>
          <strong>Mint</strong> a new key for the same integration (a date in its name helps).
        </li>
        <li>
          <strong>Deploy</strong> it to that integration in place of the old key.
        </li>
        <li>
          <strong>Watch “Last used”</strong>: once the new key's moves and the old key's stops, all
          traffic has switched.
        </li>
        <li>
          <strong>Revoke</strong> the old key. It stops working at once.
        </li>
      </ol>
      <p class="hint">A lost key cannot be shown again: revoke it and mint another.</p>
    </section>
  );
}
