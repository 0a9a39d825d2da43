import type { WebhookDelivery } from "../../api.js";
import type { DeliveryFilter } from "./delivery-log.js";
import { stateText, WEBHOOK_EVENTS } from "./webhook-text.js";

const STATES: readonly WebhookDelivery["state"][] = ["pending", "delivered", "failed", "skipped"];
const EVENTS = [...WEBHOOK_EVENTS.map((e) => e.type), "webhook.test"] as const;

/** The delivery log's filters: a state and an event type, each "All" by default. */
export function DeliveryFilters({
  filter,
  onChange,
}: {
  filter: DeliveryFilter;
  onChange: (filter: DeliveryFilter) => void;
}) {
  return (
    <div class="log-filters">
      <div class="field">
        <label for="delivery-state">State</label>
        <select
          id="delivery-state"
          value={filter.state ?? ""}
          onChange={(e) => {
            const value = e.currentTarget.value;
            onChange({ ...filter, state: STATES.find((s) => s === value) ?? null });
          }}
        >
          <option value="">All states</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {stateText(s)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="delivery-event">Event</label>
        <select
          id="delivery-event"
          value={filter.event ?? ""}
          onChange={(e) => {
            const value = e.currentTarget.value;
            onChange({ ...filter, event: EVENTS.find((t) => t === value) ?? null });
          }}
        >
          <option value="">All events</option>
          {EVENTS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
