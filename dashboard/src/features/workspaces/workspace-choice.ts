import type { Workspace } from "../../api.js";

const STORAGE_KEY = "pressroom.workspace";

/** The workspace chosen last time on this browser, if the user still belongs to it. */
export function rememberedWorkspace(workspaces: readonly Workspace[]): Workspace | undefined {
  let id: string | null = null;
  try {
    id = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage can be disabled; the first workspace is a fine default then.
  }
  return workspaces.find((w) => w.id === id) ?? workspaces[0];
}

export function rememberWorkspace(id: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, id);
  } catch {
    // Not remembered: harmless.
  }
}
