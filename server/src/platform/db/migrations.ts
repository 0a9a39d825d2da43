import type { Db } from "mongodb";
import { type Collections, collections } from "./collections.js";

/**
 * A data migration run at every start, after the indexes are ensured: idempotent, safe with
 * several instances starting at once, and cheap once done (each feature's migration keeps its
 * own marker). The platform runs the list it is handed and knows no feature; the composition
 * root (server/src/migrations.ts) says which migrations exist and in which order.
 */
export interface Migration {
  /** For humans and logs: what the migration brings stored documents up to. */
  readonly name: string;
  /** Runs it; resolves once the stored documents are in the new form. */
  run(collections: Collections): Promise<unknown>;
}

/** Runs `migrations` one after another, in the order given. */
export async function runMigrations(db: Db, migrations: readonly Migration[]): Promise<void> {
  const all = collections(db);
  for (const migration of migrations) await migration.run(all);
}
