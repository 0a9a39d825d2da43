import { type ApiKey, api, call } from "../../api.js";
import { ErrorMessage, TimeAgo } from "../../components/status.js";
import { useLoad } from "../../use-load.js";
import { describeEntry } from "./activity-sentences.js";

interface ActivityProps {
  workspaceId: string;
  keys: readonly ApiKey[];
  /** Changes whenever the keys were changed here, to fetch the newest entries again. */
  version: number;
  now: number;
}

/** The workspace's audit log, newest first, a page at a time. Every member may read it. */
export function KeyActivity({ workspaceId, keys, version, now }: ActivityProps) {
  const page = (cursor: string | null) =>
    call(
      api.GET("/workspaces/{workspaceId}/audit", {
        params: { path: { workspaceId }, query: cursor ? { cursor } : {} },
      }),
    );
  const activity = useLoad(
    async () => {
      const first = await page(null);
      return { entries: first.data, next: first.nextCursor };
    },
    [workspaceId],
    { refreshOn: [version] },
  );
  const entries = activity.data?.entries ?? null;
  const next = activity.data?.next ?? null;
  const error = activity.error?.message ?? null;
  const older = (cursor: string) =>
    activity.run(async () => {
      const more = await page(cursor);
      return { entries: [...(entries ?? []), ...more.data], next: more.nextCursor };
    });
  const names = new Map(keys.map((k) => [k.id, k.name]));
  const nameOf = (id: string | null) => (id ? `key “${names.get(id) ?? id}”` : "a key");

  return (
    <section class="card activity" aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      {error && <ErrorMessage message={error} onRetry={activity.reload} />}
      {entries?.length === 0 && <p class="muted">Nothing yet.</p>}
      {entries && entries.length > 0 && (
        <ol class="activity-list">
          {entries.map((entry) => (
            <li key={entry.id}>
              <span>{describeEntry(entry, nameOf)}</span>{" "}
              <span class="sub">
                <TimeAgo iso={entry.at} now={now} />
              </span>
            </li>
          ))}
        </ol>
      )}
      {next && (
        <button type="button" class="button small" onClick={() => older(next)}>
          Show older activity
        </button>
      )}
    </section>
  );
}
