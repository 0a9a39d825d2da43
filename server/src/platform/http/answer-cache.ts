import type { Response } from "express";
import { LRUCache } from "lru-cache";

/**
 * Answers kept in memory under their strong ETag, so that an unchanged answer asked again
 * is sent from here instead of being read, joined and serialised again. What makes it safe is
 * the ETag contract: a handler finds an answer only by an ETag it has just computed from the
 * current validators (a read of a few fields per document, as for a 304), and a strong ETag
 * names exactly one body. Nothing is ever invalidated: a changed resource has another ETag, and
 * its old answer is simply never asked for again until the budget drops it.
 *
 * Bounded twice, so that no tenant slows the others: every workspace's answers together within
 * `workspaceBytes` (the workspace's own least recently used go first), all of them within
 * `bytes` (the least recently used of all go first).
 */
export interface AnswerCache {
  /** The ETag last stored under `key`: whether checking the validators first may pay off. */
  etagOf(tenant: string, key: string): string | undefined;
  /**
   * Sends the answer stored under `key` when it has this `etag` (with the `ETag` header, as a
   * `res.json` of it would); false, and nothing sent, otherwise.
   */
  sendIfStored(res: Response, tenant: string, key: string, etag: string): boolean;
  /** Sends `body` as `res.json` does, with `etag`, and keeps the bytes sent under `key`. */
  sendAndStore(res: Response, tenant: string, key: string, etag: string, body: unknown): void;
  /** Sends `text` as `type` (which names its charset), with `etag`, and keeps it under `key`. */
  sendTextAndStore(
    res: Response,
    tenant: string,
    key: string,
    etag: string,
    type: string,
    text: string,
  ): void;
}

/** What the metrics read of a cache (platform/metrics/metrics.ts, README "Metrics"). */
export interface AnswerCacheMonitor {
  /** An answer sent: from memory (`hit`), or read whole (`miss`: never kept, changed, dropped). */
  sent(outcome: "hit" | "miss"): void;
  /** How to read the bytes held, when scraped. */
  watch(held: () => number): void;
}

export interface AnswerCacheSettings {
  /** All answers' bytes together; 0 keeps none (every call sends, nothing is stored). */
  readonly bytes: number;
  /** One workspace's answers' bytes together. */
  readonly workspaceBytes: number;
  /**
   * Whether responses are validated against the spec (express-openapi-validator checks what
   * `res.json` is given): then an answer is still sent with `res.json`, and serialised a second
   * time to be kept, so that every answer stored was validated once.
   */
  readonly validated: boolean;
  readonly monitor?: AnswerCacheMonitor;
}

interface Entry {
  readonly tenant: string;
  readonly key: string;
  readonly etag: string;
  /** The `Content-Type` it was sent with. */
  readonly type: string;
  readonly body: Buffer;
}

/** What an entry costs beyond its bytes: its strings, the maps' nodes (an estimate). */
const OVERHEAD = 256;
const JSON_TYPE = "application/json; charset=utf-8";

const sizeOf = (entry: Entry) =>
  entry.body.length + 2 * (entry.key.length + entry.etag.length) + OVERHEAD;

/** The cache as a handler uses it; with `bytes` 0, one that keeps nothing. */
export function answerCache({
  bytes,
  workspaceBytes,
  validated,
  monitor,
}: AnswerCacheSettings): AnswerCache {
  if (bytes === 0) return keepsNothing(validated);
  /** Each workspace's bytes, and its keys from least to most recently used. */
  const tenants = new Map<string, { bytes: number; keys: Map<string, number> }>();
  const all = new LRUCache<string, Entry>({
    maxSize: bytes,
    sizeCalculation: sizeOf,
    // Evicted, replaced or deleted: the workspace's accounting follows.
    dispose: (entry) => {
      const tenant = tenants.get(entry.tenant);
      const size = tenant?.keys.get(entry.key);
      if (tenant === undefined || size === undefined) return;
      tenant.keys.delete(entry.key);
      tenant.bytes -= size;
      if (tenant.keys.size === 0) tenants.delete(entry.tenant);
    },
  });
  const idOf = (tenant: string, key: string) => `${tenant}\u0000${key}`;
  monitor?.watch(() => all.calculatedSize);

  const store = (entry: Entry) => {
    const size = sizeOf(entry);
    if (size > workspaceBytes) return;
    const id = idOf(entry.tenant, entry.key);
    all.delete(id);
    let tenant = tenants.get(entry.tenant);
    if (tenant === undefined) {
      tenant = { bytes: 0, keys: new Map() };
      tenants.set(entry.tenant, tenant);
    }
    // The workspace's least recently used make room: a Map iterates in insertion order.
    for (const oldest of tenant.keys.keys()) {
      if (tenant.bytes + size <= workspaceBytes) break;
      all.delete(idOf(entry.tenant, oldest));
    }
    tenant.keys.set(entry.key, size);
    tenant.bytes += size;
    // Making room may have emptied the workspace's record, and `dispose` then dropped it.
    tenants.set(entry.tenant, tenant);
    all.set(id, entry);
  };

  return {
    etagOf: (tenant, key) => all.peek(idOf(tenant, key))?.etag,

    sendIfStored(res, tenant, key, etag) {
      const entry = all.get(idOf(tenant, key));
      if (entry?.etag !== etag) return false;
      const keys = tenants.get(tenant)?.keys;
      const size = keys?.get(key);
      if (keys !== undefined && size !== undefined) {
        keys.delete(key);
        keys.set(key, size);
      }
      sendText(res, etag, entry.type, entry.body);
      monitor?.sent("hit");
      return true;
    },

    sendAndStore(res, tenant, key, etag, body) {
      res.setHeader("ETag", etag);
      const text = sendJson(res, body, validated);
      monitor?.sent("miss");
      if (res.statusCode === 200) {
        store({ tenant, key, etag, type: JSON_TYPE, body: Buffer.from(text) });
      }
    },

    sendTextAndStore(res, tenant, key, etag, type, text) {
      sendText(res, etag, type, text);
      monitor?.sent("miss");
      if (res.statusCode === 200) store({ tenant, key, etag, type, body: Buffer.from(text) });
    },
  };
}

function sendText(res: Response, etag: string, type: string, text: string | Buffer): void {
  res.setHeader("ETag", etag);
  res.setHeader("Content-Type", type);
  res.send(text);
}

/** `res.json(body)`, or its text sent as `res.json` would send it; the text either way. */
function sendJson(res: Response, body: unknown, validated: boolean): string {
  if (validated) {
    res.json(body);
    return JSON.stringify(body);
  }
  const text = JSON.stringify(body);
  res.setHeader("Content-Type", JSON_TYPE);
  res.send(text);
  return text;
}

function keepsNothing(validated: boolean): AnswerCache {
  return {
    etagOf: () => undefined,
    sendIfStored: () => false,
    sendAndStore(res, _tenant, _key, etag, body) {
      res.setHeader("ETag", etag);
      sendJson(res, body, validated);
    },
    sendTextAndStore: (res, _tenant, _key, etag, type, text) => sendText(res, etag, type, text),
  };
}
