import type { AdminHandler } from "../admin-api-types.js";
import type { WebhookEndpointDoc } from "../db/collections.js";
import type { DeliveryLog } from "../webhooks/delivery-log.js";
import type { EndpointsStore } from "../webhooks/endpoints-store.js";
import type { ManualDeliveries } from "../webhooks/manual-deliveries.js";
import { toWebhookDelivery, toWebhookEndpoint } from "../webhooks/webhook-view.js";
import { signedInUser } from "./guards.js";

export interface WebhookRouteDeps {
  readonly endpoints: EndpointsStore;
  readonly log: DeliveryLog;
  readonly manual: ManualDeliveries;
}

/**
 * A workspace's webhook endpoints, their delivery log, test events and redeliveries
 * (admin.yaml, tag Webhooks). Reads for every member; the rest for owners (the router's guard).
 * A signing secret leaves the server only in the answers of create and rotate.
 */
export function webhookHandlers({ endpoints, log, manual }: WebhookRouteDeps) {
  const view = async (doc: WebhookEndpointDoc) =>
    toWebhookEndpoint(doc, (await endpoints.health([doc._id])).get(doc._id));

  const listWebhookEndpoints: AdminHandler<"listWebhookEndpoints"> = async (req, res) => {
    const docs = await endpoints.list(req.params.workspaceId);
    const health = await endpoints.health(docs.map((d) => d._id));
    res.json({ data: docs.map((doc) => toWebhookEndpoint(doc, health.get(doc._id))) });
  };

  const createWebhookEndpoint: AdminHandler<"createWebhookEndpoint"> = async (req, res) => {
    const { endpoint, secret } = await endpoints.create(
      req.params.workspaceId,
      req.body,
      signedInUser(res),
    );
    // The raw secret leaves the server here, once (and on rotation); nobody may store the answer.
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json({ endpoint: toWebhookEndpoint(endpoint, undefined), secret });
  };

  const getWebhookEndpoint: AdminHandler<"getWebhookEndpoint"> = async (req, res) => {
    res.json(await view(await endpoints.get(req.params.workspaceId, req.params.endpointId)));
  };

  const updateWebhookEndpoint: AdminHandler<"updateWebhookEndpoint"> = async (req, res) => {
    const { workspaceId, endpointId } = req.params;
    res.json(await view(await endpoints.update(workspaceId, endpointId, req.body)));
  };

  const deleteWebhookEndpoint: AdminHandler<"deleteWebhookEndpoint"> = async (req, res) => {
    await endpoints.remove(req.params.workspaceId, req.params.endpointId);
    res.status(204).end();
  };

  const rotateWebhookSecret: AdminHandler<"rotateWebhookSecret"> = async (req, res) => {
    const { workspaceId, endpointId } = req.params;
    const { endpoint, secret } = await endpoints.rotateSecret(workspaceId, endpointId);
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
