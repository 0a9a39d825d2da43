import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import {
  ApiError,
  api,
  call,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from "../../api.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { ALL_EVENT_TYPES, problemField, WEBHOOK_EVENTS } from "./webhook-text.js";

interface EndpointDialogProps {
  workspaceId: string;
  /** The endpoint to edit; absent to add one. */
  endpoint?: WebhookEndpoint;
  /** After an add: the new endpoint with its secret (shown once by the caller). */
  onCreated: (created: WebhookEndpointWithSecret) => void;
  onSaved: (endpoint: WebhookEndpoint) => void;
  onClose: () => void;
}

/** Adds an endpoint (all four events checked) or edits one: URL, description, events. */
export function EndpointDialog({ workspaceId, endpoint, ...props }: EndpointDialogProps) {
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [events, setEvents] = useState<WebhookEventType[]>(
    endpoint ? [...endpoint.events] : [...ALL_EVENT_TYPES],
  );
  const form = useCheckedForm<"url" | "description" | "events">();
  // A 400 about the URL is shown next to the field; anything else under the form.
  const { busy, error, submit } = useSubmit((err) => {
    const message = err instanceof Error ? err.message : "Something went wrong.";
    if (err instanceof ApiError && err.status === 400 && problemField(message) === "url") {
      form.showOnField("url", message);
      return null;
    }
    return message;
  });
  const toggle = (type: WebhookEventType, on: boolean) => {
    setEvents((now) => ALL_EVENT_TYPES.filter((t) => (t === type ? on : now.includes(t))));
    form.clear("events");
  };

  const limits = adminLimits.createWebhookEndpoint;
  const check = () => ({
    url: problemOf(url, {
      required: "Enter the URL to send events to.",
      url: true,
      maxLength: limits.url.maxLength,
    }),
    description: problemOf(description, { maxLength: limits.description.maxLength }),
    events: events.length === 0 ? "Choose at least one event." : undefined,
  });
  const save = form.checked(
    check,
    submit(async () => {
      const body = { url: url.trim(), description: description.trim(), events };
      if (endpoint === undefined) {
        props.onCreated(
          await call(
            api.POST("/workspaces/{workspaceId}/webhooks", {
              params: { path: { workspaceId } },
              body: { ...body, enabled: true },
            }),
          ),
        );
      } else {
        props.onSaved(
          await call(
            api.PATCH("/workspaces/{workspaceId}/webhooks/{endpointId}", {
              params: { path: { workspaceId, endpointId: endpoint.id } },
              body,
            }),
          ),
        );
      }
    }),
  );

  return (
    <Modal
      title={endpoint ? "Edit webhook endpoint" : "Add a webhook endpoint"}
      onClose={props.onClose}
      description="Pressroom sends a signed POST to this URL when the chosen events happen."
    >
      <form class="stack" noValidate ref={form.formRef} onSubmit={save}>
        <Field
          label="Endpoint URL"
          hint="https:// only; local and private addresses are refused."
          error={form.errors.url}
        >
          {(p) => (
            <input
              {...p}
              type="url"
              required
              maxLength={adminLimits.createWebhookEndpoint.url.maxLength}
              autofocus
              autocomplete="off"
              spellcheck={false}
              placeholder="https://example.com/hooks/pressroom"
              value={url}
              onInput={(e) => {
                setUrl(e.currentTarget.value);
                form.clear("url");
              }}
            />
          )}
        </Field>
        <Field
          label="Description"
          hint="Optional: what it is for, such as “Rebuild the site”."
          error={form.errors.description}
        >
          {(p) => (
            <input
              {...p}
              maxLength={adminLimits.createWebhookEndpoint.description.maxLength}
              autocomplete="off"
              value={description}
              onInput={(e) => {
                setDescription(e.currentTarget.value);
                form.clear("description");
              }}
            />
          )}
        </Field>
        <fieldset
          class="event-choices"
          aria-describedby={form.errors.events ? "webhook-events-error" : undefined}
        >
          <legend class="label-like">Events</legend>
          {WEBHOOK_EVENTS.map(({ type, hint }) => (
            <label key={type} class="check">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) => toggle(type, e.currentTarget.checked)}
              />
              <span>
                <code>{type}</code> <span class="muted">— {hint}</span>
              </span>
            </label>
          ))}
          {form.errors.events ? (
            <p class="field-error" id="webhook-events-error">
              {form.errors.events}
            </p>
          ) : (
            events.length === 0 && <p class="hint">Choose at least one event.</p>
          )}
        </fieldset>
        {error && <ErrorMessage message={error} />}
        <div class="modal-actions">
          <button type="button" class="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {endpoint ? (busy ? "Saving…" : "Save") : busy ? "Adding…" : "Add endpoint"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
