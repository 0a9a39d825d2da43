import type { AuditLog } from "../audit/audit-log.js";
import type { WebhookEndpointDoc } from "../platform/db/collections.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import type { DeliveryLog } from "../webhooks/delivery-log.js";
import type { EndpointsStore } from "../webhooks/endpoints-store.js";
import type { ManualDeliveries } from "../webhooks/manual-deliveries.js";
import { toWebhookDelivery, toWebhookEndpoint } from "../webhooks/webhook-view.js";
import { roleInPath, signedInUser } from "./guards.js";

export interface WebhookRouteDeps {
  readonly endpoints: EndpointsStore;
  readonly log: DeliveryLog;
  readonly manual: ManualDeliveries;
  /** Where endpoint changes and rotations are recorded (`webhook.*`). */
  readonly audit: AuditLog;
}

/** The settings of a PATCH an audit entry names (never the URL itself: it may hold a token). */
const CHANGEABLE = ["url", "description", "events", "enabled"] as const;

/**
 * A workspace's webhook endpoints, their delivery log, test events and redeliveries
 * (admin.yaml, tag Webhooks). Reads for every member; the rest for owners (the router's guard).
 * A signing secret leaves the server only in the answers of create and rotate; members who are
 * not owners read URLs with their query values masked. Changes and rotations go to the audit
 * log with the endpoint's id, never its URL or a secret.
 */
export function webhookHandlers({ endpoints, log, manual, audit }: WebhookRouteDeps) {
  const masked = (res: Parameters<typeof roleInPath>[0]) => roleInPath(res) !== "owner";
  const view = async (doc: WebhookEndpointDoc, maskUrl = false) =>
    toWebhookEndpoint(doc, (await endpoints.health([doc._id])).get(doc._id), Date.now(), maskUrl);

  const listWebhookEndpoints: AdminHandler<"listWebhookEndpoints"> = async (req, res) => {
    const docs = await endpoints.list(req.params.workspaceId);
    const health = await endpoints.health(docs.map((d) => d._id));
    const mask = masked(res);
    res.json({
      data: docs.map((doc) => toWebhookEndpoint(doc, health.get(doc._id), Date.now(), mask)),
    });
  };

  const createWebhookEndpoint: AdminHandler<"createWebhookEndpoint"> = async (req, res) => {
    const { endpoint, secret } = await endpoints.create(
      req.params.workspaceId,
      req.body,
      signedInUser(res),
    );
    await audit.record({
      workspaceId: endpoint.workspaceId,
      actor: signedInUser(res),
      action: "webhook.created",
      details: { endpointId: endpoint._id },
    });
    // The raw secret leaves the server here, once (and on rotation); nobody may store the answer.
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json({ endpoint: toWebhookEndpoint(endpoint, undefined), secret });
  };

  const getWebhookEndpoint: AdminHandler<"getWebhookEndpoint"> = async (req, res) => {
    const doc = await endpoints.get(req.params.workspaceId, req.params.endpointId);
    res.json(await view(doc, masked(res)));
  };

  const updateWebhookEndpoint: AdminHandler<"updateWebhookEndpoint"> = async (req, res) => {
    const { workspaceId, endpointId } = req.params;
    const doc = await endpoints.update(workspaceId, endpointId, req.body);
    const changed = CHANGEABLE.filter((field) => req.body[field] !== undefined);
    await audit.record({
      workspaceId,
      actor: signedInUser(res),
      action: "webhook.updated",
      details: { endpointId, changed },
    });
    res.json(await view(doc));
  };

  const deleteWebhookEndpoint: AdminHandler<"deleteWebhookEndpoint"> = async (req, res) => {
    const { workspaceId, endpointId } = req.params;
    await endpoints.remove(workspaceId, endpointId);
    await audit.record({
      workspaceId,
      actor: signedInUser(res),
      action: "webhook.deleted",
      details: { endpointId },
    });
    res.status(204).end();
  };

  const rotateWebhookSecret: AdminHandler<"rotateWebhookSecret"> = async (req, res) => {
    const { workspaceId, endpointId } = req.params;
    const dropPrevious = req.body?.dropPrevious === true;
    const { endpoint, secret } = await endpoints.rotateSecret(workspaceId, endpointId, {
      dropPrevious,
    });
    await audit.record({
      workspaceId,
      actor: signedInUser(res),
      action: "webhook.secret_rotated",
      details: { endpointId, previousSecretDropped: dropPrevious },
    });
    res.setHeader("Cache-Control", "no-store");
    res.json({ endpoint: await view(endpoint), secret });
  };

  const sendTestWebhook: AdminHandler<"sendTestWebhook"> = async (req, res) => {
    const delivery = await manual.sendTest(req.params.workspaceId, req.params.endpointId);
    res.status(202).json(toWebhookDelivery(delivery, []));
  };

  const listWebhookDeliveries: AdminHandler<"listWebhookDeliveries"> = async (req, res) => {
    const { workspaceId, endpointId } = req.params;
    await endpoints.get(workspaceId, endpointId);
    const page = await log.page(endpointId, req.query.limit ?? 20, req.query.cursor);
    res.json({
      data: page.entries.map((e) => toWebhookDelivery(e.delivery, e.attempts)),
      nextCursor: page.nextCursor,
    });
  };

  const redeliverWebhook: AdminHandler<"redeliverWebhook"> = async (req, res) => {
    const { workspaceId, endpointId, deliveryId } = req.params;
    const delivery = await manual.redeliver(workspaceId, endpointId, deliveryId);
    res.status(202).json(toWebhookDelivery(delivery, []));
  };

  return {
    listWebhookEndpoints,
    createWebhookEndpoint,
    getWebhookEndpoint,
    updateWebhookEndpoint,
    deleteWebhookEndpoint,
    rotateWebhookSecret,
    sendTestWebhook,
    listWebhookDeliveries,
    redeliverWebhook,
  };
}
