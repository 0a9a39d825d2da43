import type { WebhookDelivery } from "../../api.js";
import { TimeAgo } from "../../components/status.js";
import { hrefOf, onLinkClick } from "../../router.js";
import { timeUntil } from "../../time.js";
import { attemptOutcome, attemptSucceeded, latencyText, stateText } from "./webhook-text.js";

interface DeliveryItemProps {
  workspaceId: string;
  delivery: WebhookDelivery;
  /** The title of the blog it is about, once known (blog-titles.ts); else its id is shown. */
  blogTitle: string | undefined;
  now: number;
  /** Owners only: queue the event again. */
  onRedeliver: (() => void) | undefined;
}

/**
 * One delivery: its event, blog, state and attempts (newest first). A receiver's response is
 * shown as text in a <pre>, never as markup: it is whatever the receiver chose to answer.
 */
export function DeliveryItem(props: DeliveryItemProps) {
  const { workspaceId, delivery: d, blogTitle, now, onRedeliver } = props;
  return (
    <li class="delivery">
      <div class="delivery-head">
        <div class="delivery-what">
          <h2 class="delivery-type">
            <code>{d.eventType}</code>
          </h2>
          <span class={`badge ${d.state}`}>{stateText(d.state)}</span>
        </div>
        {onRedeliver && (
          <button type="button" class="button small" onClick={onRedeliver}>
            Redeliver
            <span class="visually-hidden">
              {" "}
              {d.eventType} of {d.id}
            </span>
          </button>
        )}
      </div>
      <p class="sub delivery-facts">
        {d.blogId ? (
          <>
            Blog{" "}
            <a
              href={hrefOf({ name: "blog", ws: workspaceId, blogId: d.blogId })}
              onClick={onLinkClick}
            >
              {blogTitle ?? d.blogId}
            </a>
          </>
        ) : (
          "Test event"
        )}
        {" · queued "}
        <TimeAgo iso={d.createdAt} now={now} />
        {d.redeliveryOf && ` · redelivery of ${d.redeliveryOf}`}
        {d.state === "pending" &&
          d.nextAttemptAt &&
          ` · next attempt ${timeUntil(d.nextAttemptAt, now)}`}
        {" · "}
        <span class="mono">webhook-id {d.eventId}</span>
      </p>
      {d.attempts.length === 0 ? (
        <p class="sub">No attempt yet.</p>
      ) : (
        <ol class="attempts" aria-label={`Attempts of ${d.id}, newest first`}>
          {d.attempts.map((a) => (
            <li key={a.number} class={attemptSucceeded(a) ? "attempt ok" : "attempt failed"}>
              <div class="attempt-line">
                <span>Attempt {a.number}</span>
                <TimeAgo iso={a.startedAt} now={now} />
                <strong>{attemptOutcome(a)}</strong>
                <span>{latencyText(a.latencyMs)}</span>
              </div>
              {a.responseExcerpt !== null && a.responseExcerpt !== "" && (
                <>
                  <p class="sub excerpt-label">Response (first 1 KiB, as text)</p>
                  <pre class="excerpt">{a.responseExcerpt}</pre>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}
