import { useState } from "preact/hooks";
import { api, call, messageOf, type WebhookEndpoint, type Workspace } from "../../api.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useTitle, useVisibleInterval } from "../../hooks.js";
import { hrefOf, onLinkClick } from "../../router.js";
import { useLoad } from "../../use-load.js";
import { WebhookCard } from "./webhook-card.js";
import { type WebhookDialog, WebhookDialogs } from "./webhook-dialogs.js";
import "./webhooks.css";

/** How often the list refreshes while visible, so health and "last delivered" move. */
const REFRESH_MS = 10_000;

/** The workspace's webhook endpoints; owners add, change, test and delete them. */
export function Webhooks({ workspace }: { workspace: Workspace }) {
  useTitle(`Webhooks · ${workspace.name}`);
  const owner = workspace.role === "owner";
  const workspaceId = workspace.id;
  /** A failed toggle or test, with the action itself to try again. */
  const [actionError, setActionError] = useState<{ message: string; retry: () => void } | null>(
    null,
  );
  const [notice, setNotice] = useState("");
  const [dialog, setDialog] = useState<WebhookDialog | null>(null);
  const [testedId, setTestedId] = useState<string | null>(null);

  const loaded = useLoad(async () => {
    const list = await call(
      api.GET("/workspaces/{workspaceId}/webhooks", { params: { path: { workspaceId } } }),
    );
    return list.data;
  }, [workspaceId]);
  const endpoints = loaded.data;
  const error = loaded.error?.message ?? null;
  const load = loaded.reload;
  const now = useVisibleInterval(load, REFRESH_MS);

  /** The list as changed first, then the notice that announces it. */
  const changed = async (message: string) => {
    await load();
    setNotice(message);
    setActionError(null);
  };
  const path = (e: WebhookEndpoint) => ({ workspaceId, endpointId: e.id });
  const act = (what: string, task: () => Promise<void>) => {
    const run = async () => {
      setNotice("");
      setTestedId(null);
      try {
        await task();
      } catch (err) {
        setActionError({ message: `Could not ${what}: ${messageOf(err)}`, retry: run });
      }
    };
    return run;
  };

  const toggle = (e: WebhookEndpoint) =>
    act(e.enabled ? "turn it off" : "turn it on", async () => {
      await call(
        api.PATCH("/workspaces/{workspaceId}/webhooks/{endpointId}", {
          params: { path: path(e) },
          body: { enabled: !e.enabled },
        }),
      );
      await changed(
        e.enabled
          ? `${e.url} is off: nothing is sent to it until you turn it back on.`
          : `${e.url} is on again.`,
      );
    });
  const test = (e: WebhookEndpoint) =>
    act("send a test event", async () => {
      await call(
        api.POST("/workspaces/{workspaceId}/webhooks/{endpointId}/test", {
          params: { path: path(e) },
        }),
      );
      await changed(`Test event queued for ${e.url}.`);
      setTestedId(e.id);
    });
  return (
    <>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>Webhooks</h1>
          <p class="lead">
            Pressroom tells your servers the moment a blog of <strong>{workspace.name}</strong> is
            released, edited, unreleased or removed: a signed POST to each endpoint.
            {!owner && " Only owners of the workspace can change endpoints."}
          </p>
        </div>
        {owner && (
          <button type="button" class="button primary" onClick={() => setDialog({ kind: "add" })}>
            Add endpoint
          </button>
        )}
      </div>
      <div role="status">
        {notice && (
          <p class="notice success">
            <span>{notice}</span>
            {testedId && (
              <a
                href={hrefOf({ name: "webhookLog", ws: workspaceId, endpointId: testedId })}
                onClick={onLinkClick}
              >
                See its deliveries
              </a>
            )}
          </p>
        )}
      </div>
      {actionError && <ErrorMessage message={actionError.message} onRetry={actionError.retry} />}
      {error && (
        <ErrorMessage message={endpoints ? `Could not refresh: ${error}` : error} onRetry={load} />
      )}
      {endpoints === null && !error && <Loading label="Loading webhook endpoints…" />}
      {endpoints?.length === 0 && (
        <div class="empty">
          <p>
            No endpoints yet.
            {owner ? " Add one to be told when blogs change." : " An owner can add one."}
          </p>
        </div>
      )}
      {endpoints && endpoints.length > 0 && (
        <ul class="webhook-list" aria-label={`Webhook endpoints of ${workspace.name}`}>
          {endpoints.map((e) => (
            <WebhookCard
              key={e.id}
              workspaceId={workspaceId}
              endpoint={e}
              now={now}
              actions={
                owner
                  ? {
                      onEdit: () => setDialog({ kind: "edit", endpoint: e }),
                      onToggle: toggle(e),
                      onRotate: () => setDialog({ kind: "rotate", endpoint: e }),
                      onTest: test(e),
                      onDelete: () => setDialog({ kind: "delete", endpoint: e }),
                    }
                  : undefined
              }
            />
          ))}
        </ul>
      )}
      <WebhookDialogs
        dialog={dialog}
        workspaceId={workspaceId}
        onDialog={setDialog}
        onChanged={changed}
      />
    </>
  );
}
