import type { WebhookEndpoint } from "../../api.js";
import { TimeAgo } from "../../components/status.js";
import { hrefOf, onLinkClick } from "../../router.js";
import { exactTime } from "../../time.js";

/** What an owner can do to an endpoint; absent for members, who only read. */
export interface EndpointActions {
  onEdit: () => void;
  onToggle: () => void;
  onRotate: () => void;
  onTest: () => void;
  onDelete: () => void;
}

interface WebhookCardProps {
  workspaceId: string;
  endpoint: WebhookEndpoint;
  now: number;
  actions: EndpointActions | undefined;
}

/** One endpoint: its URL, what it is for, its events, on or off, its health and its actions. */
export function WebhookCard({ workspaceId, endpoint: e, now, actions }: WebhookCardProps) {
  const name = e.description || e.url;
  return (
    <li class={e.enabled ? "webhook" : "webhook off"}>
      <div class="webhook-main">
        <h2 class="webhook-url mono">{e.url}</h2>
        {e.description && <p class="webhook-description">{e.description}</p>}
        <ul class="tags" aria-label="Events">
          {e.events.map((type) => (
            <li key={type} class="tag">
              {type}
            </li>
          ))}
        </ul>
        {!e.enabled && e.disabledReason && (
          <div class="notice error webhook-disabled">
            <span>
              <strong>Turned off by Pressroom:</strong> {e.disabledReason} Fix the receiver, then
              turn the endpoint back on.
            </span>
          </div>
        )}
      </div>
      <div class="webhook-meta">
        <span class={`badge ${e.enabled ? "on" : "off"}`}>{e.enabled ? "On" : "Off"}</span>
        <Health endpoint={e} now={now} />
        {e.previousSecretExpiresAt && Date.parse(e.previousSecretExpiresAt) > now && (
          <span class="sub">
            secret rotated{" "}
            <TimeAgo iso={e.secretRotatedAt ?? e.previousSecretExpiresAt} now={now} />; the previous
            one signs too until{" "}
            <time dateTime={e.previousSecretExpiresAt}>{exactTime(e.previousSecretExpiresAt)}</time>
          </span>
        )}
      </div>
      <div class="row-actions webhook-actions">
        <a
          class="button small"
          href={hrefOf({ name: "webhookLog", ws: workspaceId, endpointId: e.id })}
          onClick={onLinkClick}
        >
          Deliveries<span class="visually-hidden"> to {name}</span>
        </a>
        {actions && (
          <>
            <button type="button" class="button small" onClick={actions.onTest}>
              Send test event<span class="visually-hidden"> to {name}</span>
            </button>
            <button type="button" class="button small" onClick={actions.onEdit}>
              Edit<span class="visually-hidden"> {name}</span>
            </button>
            <button type="button" class="button small" onClick={actions.onToggle}>
              {e.enabled ? "Turn off" : "Turn on"}
              <span class="visually-hidden"> {name}</span>
            </button>
            <button type="button" class="button small" onClick={actions.onRotate}>
              Rotate secret<span class="visually-hidden"> of {name}</span>
            </button>
            <button type="button" class="button small danger-outline" onClick={actions.onDelete}>
              Delete<span class="visually-hidden"> {name}</span>
            </button>
          </>
        )}
      </div>
    </li>
  );
}

/** "last delivered 3 minutes ago", "failing since 2 hours ago", or "nothing delivered yet". */
function Health({ endpoint: e, now }: { endpoint: WebhookEndpoint; now: number }) {
  if (e.failingSince) {
    return (
      <span class="sub health failing">
        failing since <time dateTime={e.failingSince}>{exactTime(e.failingSince)}</time>
        {e.lastSuccessAt && (
          <>
            {" "}
            (last delivered <TimeAgo iso={e.lastSuccessAt} now={now} />)
          </>
        )}
      </span>
    );
  }
  if (e.lastSuccessAt) {
    return (
      <span class="sub health ok">
        last delivered <TimeAgo iso={e.lastSuccessAt} now={now} />
      </span>
    );
  }
  return <span class="sub health">nothing delivered yet</span>;
}
