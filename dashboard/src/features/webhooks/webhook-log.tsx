import { useRef, useState } from "preact/hooks";
import {
  api,
  call,
  messageOf,
  type WebhookDelivery,
  type WebhookEndpoint,
  type Workspace,
} from "../../api.js";
import { LoadMoreButton } from "../../components/load-more.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useSubmit, useTitle, useVisibleInterval } from "../../hooks.js";
import { hrefOf, onLinkClick } from "../../router.js";
import { useLoad } from "../../use-load.js";
import { useBlogTitles } from "./blog-titles.js";
import { DeliveryFilters } from "./delivery-filter.js";
import { DeliveryItem } from "./delivery-item.js";
import {
  type DeliveryFilter,
  LOG_REFRESH_MS,
  type Log,
  matchesDelivery,
  withFreshFirstPage,
} from "./delivery-log.js";
import "./webhooks.css";
import "./webhook-log.css";

const PAGE_SIZE = 20;

interface Loaded {
  endpoint: WebhookEndpoint;
  log: Log;
  /** When it was loaded: the times in the log count from then. */
  at: number;
}

/**
 * One endpoint's delivery log, newest first, a page at a time; owners redeliver from it. While
 * it is open (and the page visible) it asks for its newest page every `LOG_REFRESH_MS`, keeping
 * the older pages "Load more" brought; Refresh asks at once. Each blog is named by its title
 * (`useBlogTitles`), and a state and an event filter narrow the deliveries loaded.
 */
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
  /** A failed redelivery, with the redelivery itself to try again. */
  const [actionError, setActionError] = useState<{ message: string; retry: () => void } | null>(
    null,
  );
  const [notice, setNotice] = useState("");
  const more = useSubmit();
  const [filter, setFilter] = useState<DeliveryFilter>({ state: null, event: null });

  const page = (cursor: string | undefined) =>
    call(
      api.GET("/workspaces/{workspaceId}/webhooks/{endpointId}/deliveries", {
        params: { path, query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } },
      }),
    );

  /** The log shown (as last rendered): a refresh keeps its older pages after the new first. */
  const shownLog = useRef<Log | null>(null);
  /** The endpoint and the first page (again on Refresh, every 10 s, and after a redelivery). */
  const loaded = useLoad(async (): Promise<Loaded> => {
    const [endpoint, first] = await Promise.all([
      call(api.GET("/workspaces/{workspaceId}/webhooks/{endpointId}", { params: { path } })),
      page(undefined),
    ]);
    const fresh = { deliveries: first.data, nextCursor: first.nextCursor };
    return { endpoint, log: withFreshFirstPage(shownLog.current, fresh), at: Date.now() };
  }, [workspaceId, endpointId]);
  shownLog.current = loaded.data?.log ?? null;
  const endpoint = loaded.data?.endpoint ?? null;
  const log = loaded.data?.log ?? null;
  const now = loaded.data?.at ?? Date.now();
  const error = loaded.error?.message ?? null;
  const load = loaded.reload;
  useVisibleInterval(load, LOG_REFRESH_MS);
  const titles = useBlogTitles(workspaceId, log?.deliveries ?? null);
  const shown = log?.deliveries.filter((d) => matchesDelivery(d, filter)) ?? [];

  const loadMore = more.submit(async () => {
    const from = loaded.data;
    if (!from?.log.nextCursor) return;
    const next = await page(from.log.nextCursor);
    const deliveries = [...from.log.deliveries, ...next.data];
    // Unless a refresh answered meanwhile: its first page is newer than this one's.
    loaded.mutate((shown) =>
      shown === from ? { ...from, log: { deliveries, nextCursor: next.nextCursor } } : shown,
    );
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
        <>
          <DeliveryFilters filter={filter} onChange={setFilter} />
          <p class="visually-hidden" role="status">
            {shown.length === log.deliveries.length
              ? ""
              : `${shown.length} of ${log.deliveries.length} deliveries loaded match.`}
          </p>
          {shown.length === 0 && (
            <p class="empty">
              None of the {log.deliveries.length} deliveries loaded match.
              {log.nextCursor && " Load more to look further back."}
            </p>
          )}
        </>
      )}
      {shown.length > 0 && (
        <ol class="delivery-list" aria-label="Deliveries, newest first">
          {shown.map((d) => (
            <DeliveryItem
              key={d.id}
              workspaceId={workspaceId}
              delivery={d}
              blogTitle={d.blogId === null ? undefined : titles.get(d.blogId)}
              now={now}
              onRedeliver={owner ? redeliver(d) : undefined}
            />
          ))}
        </ol>
      )}
      {more.error && (
        <ErrorMessage message={`Could not load more: ${more.error}`} onRetry={loadMore} />
      )}
      {log?.nextCursor && <LoadMoreButton loading={more.busy} onLoad={loadMore} />}
    </>
  );
}
