// Longer than ~250 lines: its interface documents each operation.
import { randomBytes } from "node:crypto";
import type {
  Collections,
  WebhookEndpointDoc,
  WebhookEventType,
  WebhookHealthDoc,
} from "../platform/db/collections.js";
import { conflict, invalid, notFound } from "../platform/domain-error.js";
import { newId } from "../platform/ids.js";
import type { SecretBox } from "../platform/secret-box.js";
import { keyedQueue } from "../platform/timers/keyed-queue.js";
import { endpointUrlProblem, type UrlPolicy } from "./endpoint-url.js";

/** The endpoint's secret was sealed under another key: WEBHOOK_SECRETS_KEY was set or changed. */
export class SecretUnreadable extends Error {
  override readonly name = "SecretUnreadable";
  constructor() {
    super(
      "cannot sign: the endpoint's secret was sealed under another WEBHOOK_SECRETS_KEY; rotate its secret",
    );
  }
}

/** Endpoints one workspace may have. */
export const MAX_ENDPOINTS = 20;
/** How long the secret before a rotation still signs deliveries. */
export const PREVIOUS_SECRET_MS = 86_400_000;
const SECRET_BYTES = 32;
const SECRET_PREFIX = "whsec_";

export interface EndpointInput {
  readonly url: string;
  readonly description?: string;
  readonly events: readonly WebhookEventType[];
  readonly enabled?: boolean;
}
export type EndpointPatch = Partial<EndpointInput>;

/** The raw secret, `whsec_` + base64 (Standard Webhooks): returned once, never stored as is. */
const formatSecret = (bytes: Buffer): string => SECRET_PREFIX + bytes.toString("base64");

const NOT_FOUND = "Webhook endpoint not found.";

/** An endpoint as just made or given a new secret, and its raw secret: shown this once. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpointDoc;
  secret: string;
}

/** How `rotateSecret` treats the secret it replaces. */
export interface SecretRotation {
  /** The replaced secret (and any older one) signs no more from now on: it leaked. Default no. */
  readonly dropPrevious?: boolean;
}

/** The endpoints to send an event of `type` that happened at `at` to. */
export type Subscriptions = (type: WebhookEventType, at: Date) => WebhookEndpointDoc[];

/**
 * A workspace's webhook endpoints: what owners configure, and the secrets deliveries are signed
 * with, sealed at rest (platform/secret-box.ts).
 */
export interface EndpointsStore {
  /** The workspace's endpoint `endpointId`; "not found" otherwise. */
  get(workspaceId: string, endpointId: string): Promise<WebhookEndpointDoc>;
  /** The workspace's endpoints, oldest first. */
  list(workspaceId: string): Promise<WebhookEndpointDoc[]>;
  /** Delivery health of these endpoints, by id (absent: nothing sent yet). */
  health(endpointIds: readonly string[]): Promise<Map<string, WebhookHealthDoc>>;
  /** Adds an endpoint; its raw secret is returned here once. */
  create(
    workspaceId: string,
    input: EndpointInput,
    createdBy: string | null,
  ): Promise<EndpointWithSecret>;
  /** Changes what was sent; `enabled: true` also clears the server's `disabledReason`. */
  update(
    workspaceId: string,
    endpointId: string,
    patch: EndpointPatch,
  ): Promise<WebhookEndpointDoc>;
  /** Deletes the endpoint, its health and its delivery log; pending deliveries are dropped. */
  remove(workspaceId: string, endpointId: string): Promise<void>;
  /**
   * A new secret (returned once); the current one keeps signing for `PREVIOUS_SECRET_MS`, or,
   * with `dropPrevious` (a leaked secret), signs no more from now on, nor does an older one.
   */
  rotateSecret(
    workspaceId: string,
    endpointId: string,
    options?: SecretRotation,
  ): Promise<EndpointWithSecret>;
  /**
   * The workspace's endpoints as they are now (one read), as the endpoints to send an event of
   * `type` that happened at `at` to: on, subscribed, older.
   */
  subscriptions(workspaceId: string): Promise<Subscriptions>;
  /**
   * The keys a delivery is signed with now: the current secret, and the previous one if still
   * valid. Throws `SecretUnreadable` when the current one was sealed under another key.
   */
  signingKeys(endpoint: WebhookEndpointDoc): Promise<Buffer[]>;
  /** The server turns an endpoint off (a day of failures), saying why. */
  disable(endpointId: string, reason: string): Promise<void>;
}

/**
 * Writes of one endpoint take turns in this process: an update and a secret rotation derive their
 * changes from the endpoint they read (a rotation keeps the secret it replaces as the previous
 * one), so two at once would lose one of them. Across instances the same two owner actions at
 * the same moment are not guarded.
 */
export function endpointsStore(
  { webhookEndpoints, webhookHealth, webhookDeliveries, webhookAttempts }: Collections,
  box: SecretBox,
  policy: UrlPolicy,
  now: () => number = Date.now,
): EndpointsStore {
  const oneAtATime = keyedQueue();

  const checkUrl = (url: string): string => {
    const problem = endpointUrlProblem(url, policy);
    if (problem !== null) throw invalid(problem);
    return url;
  };
  const distinct = (events: readonly WebhookEventType[]): WebhookEventType[] => [
    ...new Set(events),
  ];

  const get = async (workspaceId: string, endpointId: string): Promise<WebhookEndpointDoc> => {
    const doc = await webhookEndpoints.findOne({ _id: endpointId });
    if (doc === null || doc.workspaceId !== workspaceId) throw notFound(NOT_FOUND);
    return doc;
  };

  return {
    get,

    list(workspaceId: string): Promise<WebhookEndpointDoc[]> {
      return webhookEndpoints
        .find({ workspaceId })
        .sort({ workspaceId: 1, createdAt: 1, _id: 1 })
        .limit(MAX_ENDPOINTS * 2)
        .toArray();
    },

    async health(endpointIds: readonly string[]): Promise<Map<string, WebhookHealthDoc>> {
      if (endpointIds.length === 0) return new Map();
      const docs = await webhookHealth.find({ _id: { $in: [...endpointIds] } }).toArray();
      return new Map(docs.map((doc) => [doc._id, doc]));
    },

    async create(
      workspaceId: string,
      input: EndpointInput,
      createdBy: string | null,
    ): Promise<EndpointWithSecret> {
      const url = checkUrl(input.url);
      if ((await webhookEndpoints.countDocuments({ workspaceId })) >= MAX_ENDPOINTS) {
        throw conflict(`A workspace can have at most ${MAX_ENDPOINTS} webhook endpoints.`);
      }
      const _id = newId("we");
      const secret = randomBytes(SECRET_BYTES);
      const at = new Date(now());
      const endpoint: WebhookEndpointDoc = {
        _id,
        workspaceId,
        url,
        description: (input.description ?? "").trim(),
        events: distinct(input.events),
        enabled: input.enabled ?? true,
        disabledReason: null,
        secret: await box.seal(secret, _id),
        previousSecret: null,
        previousSecretExpiresAt: null,
        secretRotatedAt: null,
        createdAt: at,
        updatedAt: at,
        createdBy,
      };
      await webhookEndpoints.insertOne(endpoint);
      // Counted again once in: of creates racing past the first count, none stays over the cap.
      if ((await webhookEndpoints.countDocuments({ workspaceId })) > MAX_ENDPOINTS) {
        await webhookEndpoints.deleteOne({ _id });
        throw conflict(`A workspace can have at most ${MAX_ENDPOINTS} webhook endpoints.`);
      }
      return { endpoint, secret: formatSecret(secret) };
    },

    update(
      workspaceId: string,
      endpointId: string,
      patch: EndpointPatch,
    ): Promise<WebhookEndpointDoc> {
      return oneAtATime(endpointId, async () => {
        const doc = await get(workspaceId, endpointId);
        const changes: Partial<WebhookEndpointDoc> = { updatedAt: new Date(now()) };
        if (patch.url !== undefined) changes.url = checkUrl(patch.url);
        if (patch.description !== undefined) changes.description = patch.description.trim();
        if (patch.events !== undefined) changes.events = distinct(patch.events);
        if (patch.enabled !== undefined) {
          changes.enabled = patch.enabled;
          if (patch.enabled) changes.disabledReason = null;
        }
        await webhookEndpoints.updateOne({ _id: endpointId }, { $set: changes });
        if (patch.enabled === true && !doc.enabled) {
          // Turned back on (after the server or a person turned it off): its failures start
          // from nothing, so old ones cannot disable it again at its first failed attempt.
          await webhookHealth.updateOne({ _id: endpointId }, { $set: { failingSince: null } });
        }
        return { ...doc, ...changes };
      });
    },

    remove(workspaceId: string, endpointId: string): Promise<void> {
      return oneAtATime(endpointId, async () => {
        await get(workspaceId, endpointId);
        await webhookEndpoints.deleteOne({ _id: endpointId });
        await webhookHealth.deleteOne({ _id: endpointId });
        await webhookDeliveries.deleteMany({ endpointId });
        await webhookAttempts.deleteMany({ endpointId });
      });
    },

    rotateSecret(
      workspaceId: string,
      endpointId: string,
      { dropPrevious = false }: SecretRotation = {},
    ): Promise<EndpointWithSecret> {
      return oneAtATime(endpointId, async () => {
        const doc = await get(workspaceId, endpointId);
        const secret = randomBytes(SECRET_BYTES);
        const at = new Date(now());
        const changes = {
          secret: await box.seal(secret, endpointId),
          previousSecret: dropPrevious ? null : doc.secret,
          previousSecretExpiresAt: dropPrevious
            ? null
            : new Date(at.getTime() + PREVIOUS_SECRET_MS),
          secretRotatedAt: at,
          updatedAt: at,
        };
        await webhookEndpoints.updateOne({ _id: endpointId }, { $set: changes });
        return { endpoint: { ...doc, ...changes }, secret: formatSecret(secret) };
      });
    },

    async subscriptions(workspaceId: string): Promise<Subscriptions> {
      const all = await webhookEndpoints
        .find({ workspaceId })
        .sort({ workspaceId: 1, createdAt: 1, _id: 1 })
        .toArray();
      return (type, at) =>
        all.filter((e) => e.enabled && e.events.includes(type) && e.createdAt <= at);
    },

    async signingKeys(endpoint: WebhookEndpointDoc): Promise<Buffer[]> {
      const keys = [await box.open(endpoint.secret, endpoint._id).catch(() => null)];
      const until = endpoint.previousSecretExpiresAt;
      if (endpoint.previousSecret !== null && until !== null && until.getTime() <= now()) {
        // Its day is over: forget it (admin.yaml, rotateWebhookSecret), unless rotated again since.
        await oneAtATime(endpoint._id, () =>
          webhookEndpoints.updateOne(
            { _id: endpoint._id, previousSecretExpiresAt: until },
            { $set: { previousSecret: null, previousSecretExpiresAt: null } },
          ),
        );
      } else if (endpoint.previousSecret !== null && until !== null) {
        // One sealed under another WEBHOOK_SECRETS_KEY (rotated after the key changed) is dropped.
        keys.push(await box.open(endpoint.previousSecret, endpoint._id).catch(() => null));
      }
      const [current] = keys;
      if (current === null || current === undefined) throw new SecretUnreadable();
      return keys.filter((k): k is Buffer => k !== null);
    },

    disable(endpointId: string, reason: string): Promise<void> {
      return oneAtATime(endpointId, async () => {
        await webhookEndpoints.updateOne(
          { _id: endpointId, enabled: true },
          { $set: { enabled: false, disabledReason: reason, updatedAt: new Date(now()) } },
        );
      });
    },
  };
}
