import { useRef, useState } from "preact/hooks";
import { type ApiKey, api, call, type Workspace } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useTitle, useVisibleInterval } from "../../hooks.js";
import { useLoad } from "../../use-load.js";
import { KeyActivity } from "./key-activity.js";
import { KeyLimitDialog } from "./key-limit.js";
import { KEYS_REFRESH_MS } from "./key-text.js";
import { KeyUsageDialog, WorkspaceUsage } from "./key-usage.js";
import { KeysEmpty } from "./keys-empty.js";
import { KeysTable } from "./keys-table.js";
import { MintKeyDialog } from "./mint-key.js";
import { RollKeyDialog, RollOverview } from "./roll-key.js";
import { RotationGuide } from "./rotation-guide.js";
import { effectiveLimitText, WorkspaceLimit } from "./workspace-limit.js";
import "./keys.css";

const RANK = { Active: 0, Expired: 1, Revoked: 2 } as const;
const byStatusThenNewest = (a: ApiKey, b: ApiKey): number =>
  RANK[a.status] - RANK[b.status] || b.createdAt.localeCompare(a.createdAt);

export function Keys({ workspace }: { workspace: Workspace }) {
  useTitle(`API keys · ${workspace.name}`);
  const owner = workspace.role === "owner";
  const [minting, setMinting] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const [limiting, setLimiting] = useState<ApiKey | null>(null);
  const [rolled, setRolled] = useState<{ from: string; to: string } | null>(null);
  const [notice, setNotice] = useState("");
  /** Bumped by every change made here, so the activity list fetches its newest entries. */
  const [version, setVersion] = useState(0);
  const [usageOf, setUsageOf] = useState<ApiKey | null>(null);

  // The 10 s refresh and the reload after a change can answer out of order: useLoad keeps the
  // newest, so an older answer (a just-revoked key still active) never overwrites it.
  const loaded = useLoad(async () => {
    const path = { workspaceId: workspace.id };
    const [list, limits] = await Promise.all([
      call(api.GET("/workspaces/{workspaceId}/keys", { params: { path } })),
      call(api.GET("/workspaces/{workspaceId}/rate-limit", { params: { path } })),
    ]);
    return { keys: [...list.data].sort(byStatusThenNewest), limits };
  }, [workspace.id]);
  const keys = loaded.data?.keys ?? null;
  const limits = loaded.data?.limits ?? null;
  const error = loaded.error?.message ?? null;
  const load = loaded.reload;
  useVisibleInterval(load, KEYS_REFRESH_MS);
  const now = Date.now();
  const noticeRef = useRef<HTMLParagraphElement>(null);
  /**
   * A change can take away the element that had the focus: a revoked key's row (its Actions
   * button, where the confirmation returned the focus) goes into the folded, hidden "Show N
   * revoked" table; "Mint your first key" goes once there is a key. Once the change has rendered,
   * a focus fallen to <body> goes to the fold's button, else the notice, so keyboard and screen
   * reader users stay where the key went.
   */
  const refocusIfLost = () =>
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if ((active && active !== document.body) || document.querySelector("dialog[open]")) return;
      const fold = document.querySelector<HTMLElement>(".revoked-fold > button");
      (fold ?? noticeRef.current)?.focus();
    });
  const changed = async (message: string) => {
    setNotice(message);
    setVersion((v) => v + 1);
    await load();
    refocusIfLost();
  };
  const closed = (close: () => void) => () => {
    close();
    refocusIfLost();
  };

  const revoke = async (key: ApiKey) => {
    await call(
      api.POST("/workspaces/{workspaceId}/keys/{keyId}/revoke", {
        params: { path: { workspaceId: workspace.id, keyId: key.id } },
      }),
    );
    setRevoking(null);
    await changed(`Key “${key.name}” revoked. Requests that use it now get 401.`);
  };

  const byId = new Map((keys ?? []).map((k) => [k.id, k]));
  const defaultLimit = limits ? effectiveLimitText(limits) : "workspace default";
  const pair = rolled && { previous: byId.get(rolled.from), successor: byId.get(rolled.to) };

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
      <div role="status">
        {notice && (
          <p class="notice success" ref={noticeRef} tabIndex={-1}>
            {notice}
          </p>
        )}
      </div>
      {error && (
        <ErrorMessage message={keys ? `Could not refresh: ${error}` : error} onRetry={load} />
      )}
      {pair?.previous && pair.successor && (
        <RollOverview
          previous={pair.previous}
          successor={pair.successor}
          now={now}
          onHide={() => setRolled(null)}
        />
      )}
      {keys === null && !error && <Loading label="Loading keys…" />}
      {keys?.length === 0 && <KeysEmpty onMint={() => setMinting(true)} />}
      {keys && keys.length > 0 && (
        <KeysTable
          keys={keys}
          workspaceName={workspace.name}
          now={now}
          defaultLimit={defaultLimit}
          onEditLimit={owner ? setLimiting : undefined}
          onRoll={setRolling}
          onRevoke={setRevoking}
          onUsage={setUsageOf}
        />
      )}
      {limits && (
        <WorkspaceLimit
          key={JSON.stringify(limits)}
          workspaceId={workspace.id}
          limits={limits}
          canEdit={owner}
          onSaved={(next) =>
            void changed(`Saved: keys without their own limit get ${effectiveLimitText(next)}.`)
          }
        />
      )}
      <WorkspaceUsage workspaceId={workspace.id} version={loaded.data} />
      <KeyActivity workspaceId={workspace.id} keys={keys ?? []} version={version} now={now} />
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
          onMinted={(minted) => void changed(`Key “${minted.name}” minted.`)}
          onClose={closed(() => setMinting(false))}
        />
      )}
      {rolling && (
        <RollKeyDialog
          workspaceId={workspace.id}
          apiKey={rolling}
          onRolled={(successor) => {
            setRolled({ from: rolling.id, to: successor.id });
            void changed(
              `Key “${rolling.name}” rolled. Deploy the new key before the old one expires.`,
            );
          }}
          onClose={closed(() => setRolling(null))}
        />
      )}
      {limiting && (
        <KeyLimitDialog
          workspaceId={workspace.id}
          apiKey={limiting}
          fallback={defaultLimit}
          onSaved={(key) => void changed(`Limit of “${key.name}” saved.`)}
          onClose={() => setLimiting(null)}
        />
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          confirmLabel="Revoke key"
          onConfirm={() => revoke(revoking)}
          onClose={closed(() => setRevoking(null))}
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
