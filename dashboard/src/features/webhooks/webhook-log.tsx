import { useCallback, useEffect, useState } from "preact/hooks";
import {
  api,
  call,
  messageOf,
  type WebhookDelivery,
  type WebhookEndpoint,
  type Workspace,
} from "../../api.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useSubmit, useTitle } from "../../hooks.js";
import { hrefOf, onLinkClick } from "../../router.js";
import { DeliveryItem } from "./delivery-item.js";
import "./webhooks.css";

const PAGE_SIZE = 20;

interface Log {
  deliveries: WebhookDelivery[];
  nextCursor: string | null;
}

/** One endpoint's delivery log, newest first, a page at a time; owners redeliver from it. */
export function WebhookLog({
  workspace,
  endpointId,
}: {
  workspace: Workspace;
  endpointId: string;
}) {
  useTitle(`Deliveries · Webhooks · ${workspace.name}`);
  const owner = workspace.role === "owner";
  const workspaceId = workspace.id;
  const path = { workspaceId, endpointId };
  const [endpoint, setEndpoint] = useState<WebhookEndpoint | null>(null);
  const [log, setLog] = useState<Log | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** A failed redelivery, with the redelivery itself to try again. */
  const [actionError, setActionError] = useState<{ message: string; retry: () => void } | null>(
    null,
  );
  const [notice, setNotice] = useState("");
  const [now, setNow] = useState(Date.now);
  const more = useSubmit();

  const page = (cursor: string | undefined) =>
    call(
      api.GET("/workspaces/{workspaceId}/webhooks/{endpointId}/deliveries", {
        params: { path, query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
      }),
    );

  /** The endpoint and the first page again (Refresh, and after a redelivery). */
  const load = useCallback(async () => {
    try {
      const [e, first] = await Promise.all([
        call(api.GET("/workspaces/{workspaceId}/webhooks/{endpointId}", { params: { path } })),
        page(undefined),
      ]);
      setEndpoint(e);
      setLog({ deliveries: first.data, nextCursor: first.nextCursor });
      setNow(Date.now());
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [workspaceId, endpointId]);
  useEffect(() => {
    void load();
  }, [load]);

  const loadMore = more.submit(async () => {
    if (!log?.nextCursor) return;
    const next = await page(log.nextCursor);
    setLog({ deliveries: [...log.deliveries, ...next.data], nextCursor: next.nextCursor });
  });

  const redeliver = (d: WebhookDelivery) => async (): Promise<void> => {
    setNotice("");
    setActionError(null);
    try {
      await call(
        api.POST(
          "/workspaces/{workspaceId}/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver",
          { params: { path: { ...path, deliveryId: d.id } } },
        ),
      );
      await load();
      setNotice(`${d.eventType} queued again (same webhook-id ${d.eventId}).`);
    } catch (err) {
      setActionError({
        message: `Could not redeliver: ${messageOf(err)}`,
        retry: () => void redeliver(d)(),
      });
    }
  };

  return (
    <>
      <a
        class="back-link"
        href={hrefOf({ name: "webhooks", ws: workspaceId })}
        onClick={onLinkClick}
      >
        ← Webhooks
      </a>
      <div class="page-header">
        <div>
          <h1 tabIndex={-1}>Deliveries</h1>
          {endpoint && (
            <p class="lead">
              To <span class="mono webhook-url-inline">{endpoint.url}</span>
              {endpoint.description && ` — ${endpoint.description}`}. Newest first; kept 30 days.
            </p>
          )}
        </div>
        <button type="button" class="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {endpoint && !endpoint.enabled && (
        <div class="notice error">
          <span>
            This endpoint is off: nothing is sent to it.
            {endpoint.disabledReason && ` Turned off by Pressroom: ${endpoint.disabledReason}`}
          </span>
        </div>
      )}
      <div role="status">{notice && <p class="notice success">{notice}</p>}</div>
      {actionError && <ErrorMessage message={actionError.message} onRetry={actionError.retry} />}
      {error && <ErrorMessage message={error} onRetry={load} />}
      {log === null && !error && <Loading label="Loading deliveries…" />}
      {log?.deliveries.length === 0 && (
        <div class="empty">
          <p>Nothing sent yet. Deliveries appear here when blogs change, or after a test event.</p>
        </div>
      )}
      {log && log.deliveries.length > 0 && (
        <ol class="delivery-list" aria-label="Deliveries, newest first">
          {log.deliveries.map((d) => (
            <DeliveryItem
              key={d.id}
              workspaceId={workspaceId}
              delivery={d}
              now={now}
              onRedeliver={owner ? redeliver(d) : undefined}
            />
          ))}
        </ol>
      )}
      {more.error && (
        <ErrorMessage message={`Could not load more: ${more.error}`} onRetry={loadMore} />
      )}
      {log?.nextCursor && (
        <button type="button" class="button block" onClick={loadMore} disabled={more.busy}>
          {more.busy ? "Loading…" : "Load more"}
        </button>
      )}
    </>
  );
}
