import type { Collection, Db } from "mongodb";
import type { Blog } from "../api-types.js";

/** Stored documents: the database's own shapes, built on the spec's where they overlap. */
export interface WorkspaceDoc {
  _id: string;
  name: string;
  createdAt: Date;
}

export type KeyStatus = "Active" | "Revoked";

export interface ApiKeyDoc {
  /** SHA-256 hex of the raw key: the lookup key, so authentication reads the primary index. */
  _id: string;
  /** Public identifier used to list and revoke the key. */
  keyId: string;
  workspaceId: string;
  name: string;
  /** First 12 characters of the raw key, for display. */
  prefix: string;
  status: KeyStatus;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export type BlogStatus = "draft" | "released" | "removed";

/** The content fields of the spec's `Blog`, stored as they are served. */
type BlogContent = Omit<Blog, "id" | "releasedAt" | "updatedAt">;

export interface BlogDoc extends BlogContent {
  _id: string;
  workspaceId: string;
  status: BlogStatus;
  createdAt: Date;
  updatedAt: Date;
  releasedAt: Date | null;
  removedAt: Date | null;
}

export interface Collections {
  readonly workspaces: Collection<WorkspaceDoc>;
  readonly apiKeys: Collection<ApiKeyDoc>;
  readonly blogs: Collection<BlogDoc>;
}

export function collections(db: Db): Collections {
  return {
    workspaces: db.collection<WorkspaceDoc>("workspaces"),
    apiKeys: db.collection<ApiKeyDoc>("apiKeys"),
    blogs: db.collection<BlogDoc>("blogs"),
  };
}

/**
 * Indexes created at start-up (idempotent). Keys are found by `_id` (their hash), blogs by
 * `_id`; these cover the rest:
 * - blogs {workspaceId, status, releasedAt desc, _id desc}: the consumer list, one index range
 *   per page in release order (keyset pagination, no skip);
 * - blogs {workspaceId, slug} unique: slugs are unique within a workspace;
 * - apiKeys {keyId} unique: revoke by public id; apiKeys {workspaceId, createdAt}: list keys.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  const { apiKeys, blogs } = collections(db);
  // One index per command: FerretDB 1.24 drops the connection (a server-side panic) when one
  // createIndexes command names several indexes that all exist already.
  await blogs.createIndex(
    { workspaceId: 1, status: 1, releasedAt: -1, _id: -1 },
    { name: "released_list" },
  );
  await blogs.createIndex({ workspaceId: 1, slug: 1 }, { name: "workspace_slug", unique: true });
  await apiKeys.createIndex({ keyId: 1 }, { name: "key_id", unique: true });
  await apiKeys.createIndex({ workspaceId: 1, createdAt: 1 }, { name: "workspace_keys" });
}
