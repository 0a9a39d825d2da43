// The app's indexes have one source, `ensureIndexes` (server/src/platform/db/indexes.ts). The
// embedded database's Go tests (the plan test of every query shape, the durability and scaling
// tests; server/embedded-db/README.md, "Plans") cannot import it, so they read the list from
// server/embedded-db/testdata/app-indexes.json. This test proves that file is exactly what
// `ensureIndexes` asks the database for, in its order: TTL options left out, as FerretDB (which
// refuses TTL indexes) gets plain indexes of the same names and keys. After a change of the
// indexes, `PRESSROOM_WRITE_APP_INDEXES=1 npx vitest run test/db/app-indexes.test.ts` rewrites the
// file from what the run saw; commit it with the change.
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useTestDb } from "../support/test-db.js";

const FILE = "server/embedded-db/testdata/app-indexes.json";

interface AppIndex {
  readonly collection: string;
  readonly name: string;
  readonly key: readonly { readonly field: string; readonly order: number }[];
  readonly unique: boolean;
}

interface IndexRequest {
  /** The driver sends keys as a Map, which keeps their order. */
  readonly key: Map<string, number> | Record<string, number>;
  readonly name: string;
  readonly unique?: boolean;
}

const t = await useTestDb();

/** Every index `ensureIndexes` asked for (useTestDb ran it), once each, in the order asked. */
function requested(): AppIndex[] {
  const seen = new Map<string, AppIndex>();
  for (const { name, command } of t.commands) {
    if (name !== "createIndexes") continue;
    const collection = String(command.createIndexes);
    for (const index of command.indexes as IndexRequest[]) {
      const id = `${collection}.${index.name}`;
      if (seen.has(id)) continue; // FerretDB: the TTL attempt, then the plain index of that name
      seen.set(id, {
        collection,
        name: index.name,
        key: [...(index.key instanceof Map ? index.key : Object.entries(index.key))].map(
          ([field, order]) => ({ field, order }),
        ),
        unique: index.unique === true,
      });
    }
  }
  return [...seen.values()];
}

describe("the Go tests' index list is the one ensureIndexes creates (server/embedded-db/README.md)", () => {
  it(`${FILE} lists every index of ensureIndexes, with its keys, order and uniqueness`, () => {
    const made = requested();
    const text = `${JSON.stringify(made, null, 2)}\n`;
    if (process.env.PRESSROOM_WRITE_APP_INDEXES === "1") writeFileSync(FILE, text);
    expect(made.length).toBeGreaterThan(30);
    expect(JSON.parse(readFileSync(FILE, "utf8"))).toEqual(made);
  });

  it("the database holds each listed index after ensureIndexes, under its name and keys", async () => {
    const listed = JSON.parse(readFileSync(FILE, "utf8")) as AppIndex[];
    for (const index of listed) {
      const specs = await t.db.collection(index.collection).listIndexes().toArray();
      const spec = specs.find((s) => s.name === index.name);
      expect(spec, `${index.collection}.${index.name}`).toBeDefined();
      expect(Object.entries(spec?.key ?? {})).toEqual(index.key.map((k) => [k.field, k.order]));
      expect(spec?.unique === true).toBe(index.unique);
    }
  });
});
