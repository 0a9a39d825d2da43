import { readFileSync } from "node:fs";
import type { Db } from "mongodb";
import { expect } from "vitest";
import { parse } from "yaml";
import type { components as AdminComponents } from "../../openapi/generated/admin.js";
import type { components } from "../../openapi/generated/consumer.js";
import type { WebhookEventType } from "../../server/src/platform/db/collections.js";
import { createStores } from "../../server/src/stores.js";
import { type AdminClient, ANY_VERSION } from "../support/admin-client.js";

export type BlogEvent = components["schemas"]["BlogEvent"];
type Workspace = AdminComponents["schemas"]["Workspace"];
type AdminBlog = AdminComponents["schemas"]["AdminBlog"];

export const ALL_EVENTS: WebhookEventType[] = [
  "blog.released",
  "blog.updated",
  "blog.unreleased",
  "blog.removed",
];

/** The endpoints store the server uses, over the test's database (http to loopback allowed). */
export const endpointsOf = (db: Db) =>
  createStores(db, { webhookUrlPolicy: { allowHttpLoopback: true } }).webhookEndpoints;

/** A new workspace of the signed-in owner, so each test's endpoint hears only its own blogs. */
export async function newWorkspace(admin: AdminClient, name: string): Promise<string> {
  const res = await admin.post<Workspace>("/workspaces", { name });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** The admin API's blog writes, one call each, to whichever version is current (`If-Match: *`). */
export function blogApi(admin: AdminClient, ws: string) {
  const base = `/workspaces/${ws}/blogs`;
  const ok = <T>(res: { status: number; body: T }): T => {
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  };
  return {
    /** A draft (the admin API creates drafts), released at once when `release`. */
    create: async (title: string, release = false) => {
      const { id } = ok(
        await admin.post<AdminBlog>(base, { title, bodyMarkdown: `About ${title}.` }),
      );
      if (release) ok(await admin.post<AdminBlog>(`${base}/${id}/release`, undefined, ANY_VERSION));
      return id;
    },
    /**
     * Edits the title; a released blog's edit is staged, so it is published at once too (the
     * edit consumers and webhooks hear of: admin.yaml, "Staged changes").
     */
    edit: async (id: string, title: string) => {
      const saved = ok(await admin.patch<AdminBlog>(`${base}/${id}`, { title }, ANY_VERSION));
      if (!saved.pendingChanges) return saved;
      return ok(await admin.post<AdminBlog>(`${base}/${id}/publish`, undefined, ANY_VERSION));
    },
    release: async (id: string) =>
      ok(await admin.post<AdminBlog>(`${base}/${id}/release`, undefined, ANY_VERSION)),
    unrelease: async (id: string) =>
      ok(await admin.post<AdminBlog>(`${base}/${id}/unrelease`, undefined, ANY_VERSION)),
    remove: async (id: string) => ok(await admin.delete(`${base}/${id}`, ANY_VERSION)),
  };
}

const spec = parse(readFileSync(new URL("../../openapi/openapi.yaml", import.meta.url), "utf8"));

/**
 * `body` is a `BlogEvent` of openapi.yaml: exactly its properties (additionalProperties: false),
 * each matching the schema's type, enum and pattern, read from the spec itself.
 */
export function expectBlogEventShape(body: unknown): asserts body is BlogEvent {
  const schema = spec.components.schemas.BlogEvent;
  const event = body as Record<string, unknown>;
  expect(Object.keys(event).sort()).toEqual([...schema.required].sort());
  expect(schema.properties.type.enum).toContain(event.type);
  expect(event.id).toMatch(new RegExp(schema.properties.id.pattern));
  expect(event.workspaceId).toMatch(new RegExp(schema.properties.workspaceId.pattern));
  expect(new Date(String(event.occurredAt)).toISOString()).toBe(event.occurredAt);
  const data = event.data as Record<string, unknown>;
  expect(Object.keys(data).sort()).toEqual([...schema.properties.data.required].sort());
  expect(data.blogId).toMatch(new RegExp(spec.components.schemas.Blog.properties.id.pattern));
  expect(data.slug).toMatch(new RegExp(spec.components.schemas.Slug.pattern));
}
