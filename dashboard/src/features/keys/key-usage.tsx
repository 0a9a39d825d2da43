import { useState } from "preact/hooks";
import { type ApiKey, api, call } from "../../api.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useVisibleInterval } from "../../hooks.js";
import { useLoad } from "../../use-load.js";
import { KEYS_REFRESH_MS } from "./key-text.js";
import { UsageChart } from "./usage-chart.js";

type Granularity = "day" | "hour";

const SPANS: Record<Granularity, string> = { day: "last 30 days", hour: "last 24 hours" };

/**
 * A key's requests per day (30 days) or hour (24 hours), by outcome, in a dialog. While it is
 * open and the page visible it asks again every `KEYS_REFRESH_MS` (as the keys table does), so
 * the chart moves with the key's traffic without closing it.
 */
export function KeyUsageDialog({
  workspaceId,
  apiKey,
  onClose,
}: {
  workspaceId: string;
  apiKey: ApiKey;
  onClose: () => void;
}) {
  const [granularity, setGranularity] = useState<Granularity>("day");
  // The buckets are those of the granularity chosen: right after a switch, or when an earlier
  // answer arrives late, the chart never shows days under an hourly title.
  const usage = useLoad(async () => {
    const answer = await call(
      api.GET("/workspaces/{workspaceId}/keys/{keyId}/usage", {
        params: { path: { workspaceId, keyId: apiKey.id }, query: { granularity } },
      }),
    );
    return answer.data;
  }, [workspaceId, apiKey.id, granularity]);
  useVisibleInterval(usage.reload, KEYS_REFRESH_MS);
  const buckets = usage.data;
  const error = usage.error?.message ?? null;

  return (
    <Modal
      title={`Usage of “${apiKey.name}”`}
      onClose={onClose}
      description={
        <p>
          Consumer requests with <code>{apiKey.prefix}…</code>, counted by answer. Counts reach this
          chart within a few seconds; it refreshes every {KEYS_REFRESH_MS / 1000} seconds while
          open.
        </p>
      }
    >
      <fieldset class="usage-granularity">
        <legend>Show</legend>
        {(["day", "hour"] as const).map((g) => (
          <label key={g}>
            <input
              type="radio"
              name="usage-granularity"
              value={g}
              checked={granularity === g}
              onChange={() => setGranularity(g)}
            />{" "}
            {g === "day" ? "Per day, last 30 days" : "Per hour, last 24 hours"}
          </label>
        ))}
      </fieldset>
      {error && <ErrorMessage message={error} onRetry={usage.reload} />}
      {buckets === null && !error && <Loading label="Loading usage…" />}
      {buckets && (
        <UsageChart
          buckets={buckets}
          unit={granularity}
          title={`Requests of “${apiKey.name}” per ${granularity}`}
          span={SPANS[granularity]}
        />
      )}
      <div class="modal-actions">
        <button type="button" class="button" onClick={onClose} autofocus>
          Close
        </button>
      </div>
    </Modal>
  );
}

/** The workspace's requests per day over the last 30 days, all keys together. */
export function WorkspaceUsage({
  workspaceId,
  version,
}: {
  workspaceId: string;
  /** Changes (by identity) whenever the keys table refreshes: the total follows it. */
  version: unknown;
}) {
  const usage = useLoad(
    async () => {
      const answer = await call(
        api.GET("/workspaces/{workspaceId}/usage", { params: { path: { workspaceId } } }),
      );
      return answer.data;
    },
    [workspaceId],
    { refreshOn: [version] },
  );
  const buckets = usage.data;
  const error = usage.error?.message ?? null;

  return (
    <section class="card usage" aria-labelledby="workspace-usage-title">
      <h2 id="workspace-usage-title">Requests, all keys, last 30 days</h2>
      {error && <ErrorMessage message={error} onRetry={usage.reload} />}
      {buckets === null && !error && <Loading label="Loading usage…" />}
      {buckets && (
        <UsageChart
          buckets={buckets}
          unit="day"
          title="Requests of all keys per day"
          span="last 30 days"
        />
      )}
    </section>
  );
}
