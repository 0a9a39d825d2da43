import type { KeysStore } from "../keys/keys-store.js";
import { DAY_MS, floorTo, HOUR_MS, KEEP_DAYS_MS, KEEP_HOURS_MS } from "../limits/usage-buckets.js";
import type { UsageBucket, UsageStore } from "../limits/usage-store.js";
import { invalid } from "../platform/domain-error.js";
import type { AdminHandler } from "../platform/http/admin-types.js";

/** The span of buckets a usage request asks for, checked against what is kept. */
export function usageSpan(
  query: { from?: string; to?: string },
  unit: "h" | "d",
  now: number,
): { from: number; to: number } {
  const step = unit === "h" ? HOUR_MS : DAY_MS;
  const to = query.to === undefined ? floorTo(now, step) + step : Date.parse(query.to);
  const from = floorTo(
    query.from === undefined
      ? floorTo(now, step) - (unit === "h" ? 23 : 29) * step
      : Date.parse(query.from),
    step,
  );
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw invalid("from and to must be dates.");
  if (to <= from) throw invalid("to must be after from.");
  if (to - from > KEEP_DAYS_MS + step) throw invalid("A usage span is at most 90 days.");
  if (unit === "h" && from < floorTo(now, HOUR_MS) - KEEP_HOURS_MS) {
    throw invalid("Hourly usage is kept 48 hours: from must be within the last 48 hours.");
  }
  return { from, to };
}

const view = (buckets: UsageBucket[]) =>
  buckets.map(({ start, ...counts }) => ({ start: new Date(start).toISOString(), ...counts }));

/** Usage of a workspace's keys (limits/usage-store.ts); members may read. */
export function usageHandlers(
  usage: UsageStore,
  keys: Pick<KeysStore, "find">,
  now: () => number = Date.now,
) {
  const getKeyUsage: AdminHandler<"getKeyUsage"> = async (req, res) => {
    const { workspaceId, keyId } = req.params;
    const unit = req.query.granularity === "hour" ? "h" : "d";
    const { from, to } = usageSpan(req.query, unit, now());
    await keys.find(workspaceId, keyId); // 404 when the workspace has no such key
    res.json({
      granularity: unit === "h" ? "hour" : "day",
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      data: view(await usage.buckets(keyId, unit, from, to)),
    });
  };

  const getWorkspaceUsage: AdminHandler<"getWorkspaceUsage"> = async (req, res) => {
    const { from, to } = usageSpan(req.query, "d", now());
    res.json({
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      data: view(await usage.buckets(req.params.workspaceId, "d", from, to)),
    });
  };

  return { getKeyUsage, getWorkspaceUsage };
}
