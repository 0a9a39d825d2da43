import type { Collections } from "../db/collections.js";
import { HttpError } from "../http/errors.js";
import { newId } from "../ids.js";

export interface WorkspaceSummary {
  id: string;
  name: string;
  createdAt: string;
}

export function workspacesStore({ workspaces }: Collections) {
  return {
    async create(name: string): Promise<WorkspaceSummary> {
      const trimmed = name.trim();
      if (trimmed === "" || trimmed.length > 100) {
        throw new HttpError(400, "A workspace needs a name of 1 to 100 characters.");
      }
      const doc = { _id: newId("ws"), name: trimmed, createdAt: new Date() };
      await workspaces.insertOne(doc);
      return { id: doc._id, name: doc.name, createdAt: doc.createdAt.toISOString() };
    },

    async list(): Promise<WorkspaceSummary[]> {
      const docs = await workspaces.find({}).sort({ createdAt: 1, _id: 1 }).toArray();
      return docs.map((d) => ({ id: d._id, name: d.name, createdAt: d.createdAt.toISOString() }));
    },
  };
}

export type WorkspacesStore = ReturnType<typeof workspacesStore>;
