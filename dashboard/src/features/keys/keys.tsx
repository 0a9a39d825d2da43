import { useRef, useState } from "preact/hooks";
import { type ApiKey, api, call, type Workspace } from "../../api.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useTitle, useVisibleInterval } from "../../hooks.js";
import { hrefOf, navigate } from "../../router.js";
import { useLoad } from "../../use-load.js";
import { KeyActivity } from "./key-activity.js";
import { type KeyDialog, KeyDialogs } from "./key-dialogs.js";
import { KEYS_REFRESH_MS } from "./key-text.js";
import { WorkspaceUsage } from "./key-usage.js";
import { KeysEmpty } from "./keys-empty.js";
import { KeysTable } from "./keys-table.js";
import { PreviewUrlCard } from "./preview-url.js";
import { PublicFeedsCard } from "./public-feeds.js";
import { RollOverview } from "./roll-key.js";
import { RotationGuide } from "./rotation-guide.js";
import { effectiveLimitText, WorkspaceLimit } from "./workspace-limit.js";
import "./keys.css";

const RANK = { Active: 0, Expired: 1, Revoked: 2 } as const;
const byStatusThenNewest = (a: ApiKey, b: ApiKey): number =>
  RANK[a.status] - RANK[b.status] || b.createdAt.localeCompare(a.createdAt);

export function Keys({
  workspace,
  status,
  onWorkspaceChange,
}: {
  workspace: Workspace;
  /** The keys shown, from the address (`?status=`); null for all. */
  status: ApiKey["status"] | null;
  /** The workspace changed here (its preview URL, its feeds): the rest of the dashboard follows. */
  onWorkspaceChange: (workspace: Workspace) => void;
}) {
  useTitle(`API keys · ${workspace.name}`);
  const owner = workspace.role === "owner";
  const [dialog, setDialog] = useState<KeyDialog | null>(null);
  const [rolled, setRolled] = useState<{ from: string; to: string } | null>(null);
  const [notice, setNotice] = useState("");
  /** Bumped by every change made here, so the activity list fetches its newest entries. */
  const [version, setVersion] = useState(0);

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
  const close = (refocus: boolean) => {
    setDialog(null);
    if (refocus) refocusIfLost();
  };
  const openDialog = (kind: "usage" | "roll" | "limit" | "revoke") => (key: ApiKey) =>
    setDialog({ kind, key });

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
        <button type="button" class="button primary" onClick={() => setDialog({ kind: "mint" })}>
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
      {keys?.length === 0 && <KeysEmpty onMint={() => setDialog({ kind: "mint" })} />}
      {keys && keys.length > 0 && (
        <KeysTable
          keys={keys}
          filter={status ?? "All"}
          onFilterChange={(next) =>
            navigate(
              hrefOf({ name: "keys", ws: workspace.id, status: next === "All" ? null : next }),
              { replace: true },
            )
          }
          workspaceName={workspace.name}
          now={now}
          defaultLimit={defaultLimit}
          onEditLimit={owner ? openDialog("limit") : undefined}
          onRoll={(key) =>
            key.kind === "preview" && !owner ? undefined : () => openDialog("roll")(key)
          }
          onRevoke={openDialog("revoke")}
          onUsage={openDialog("usage")}
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
      <PreviewUrlCard
        workspace={workspace}
        onSaved={(next) => {
          onWorkspaceChange(next);
          void changed(next.previewUrl ? "Saved: preview links are on." : "Preview links are off.");
        }}
      />
      <PublicFeedsCard
        workspace={workspace}
        onSaved={(next, message) => {
          onWorkspaceChange(next);
          void changed(message);
        }}
      />
      <WorkspaceUsage workspaceId={workspace.id} version={loaded.data} />
      <KeyActivity workspaceId={workspace.id} keys={keys ?? []} version={version} now={now} />
      <RotationGuide />
      <KeyDialogs
        dialog={dialog}
        workspaceId={workspace.id}
        owner={owner}
        defaultLimit={defaultLimit}
        onChanged={changed}
        onRolled={(previous, successor) => setRolled({ from: previous.id, to: successor.id })}
        onClose={close}
      />
    </>
  );
}
