import type { WebhookDeliveryDoc } from "../platform/db/collections.js";

/**
 * The workspace a delivery counts against. Every delivery has stored its workspace since
 * webhooks began; one without (written by hand, or by a future writer that forgets it) counts
 * as a workspace of its endpoint's own, so it is still sent and still capped.
 */
export const shareOf = (d: Pick<WebhookDeliveryDoc, "workspaceId" | "endpointId">): string =>
  typeof d.workspaceId === "string" && d.workspaceId !== "" ? d.workspaceId : `~${d.endpointId}`;

/** How many of the values equal `key`. */
function countOf(values: Iterable<string>, key: string): number {
  let n = 0;
  for (const v of values) if (v === key) n++;
  return n;
}

export interface ShareCaps {
  /** Attempts in flight per instance. */
  readonly total: number;
  /** … per endpoint. */
  readonly perEndpoint: number;
  /** … per workspace (WEBHOOK_WORKSPACE_IN_FLIGHT). */
  readonly perWorkspace: number;
}

/**
 * One poll's choice of due deliveries (README, "Webhooks": fair share): candidates are taken in
 * the order the due pages list them, each workspace only up to its share left (its cap minus
 * what it has in flight) and each endpoint up to its own; then they are started round-robin
 * across workspaces — one of each in turn, beginning after the workspace served last — until
 * the instance's pool is full. So a workspace with a backlog of due deliveries (or endpoints
 * that never answer) holds at most its share of the pool, and when more workspaces wait than
 * there is room, each gets its turn.
 */
export class FairShare {
  /** The workspace of the last delivery started: the next round begins after it. */
  private lastServed: string | undefined;
  private readonly byWorkspace = new Map<string, WebhookDeliveryDoc[]>();
  private readonly endpoints: string[] = [];
  private gathered = 0;

  constructor(
    private readonly caps: ShareCaps,
    /** Delivery id → [workspace, endpoint] of the attempts in flight now. */
    private readonly inFlight: ReadonlyMap<string, readonly [string, string]>,
  ) {}

  /** Starts a new poll's gathering. */
  reset(): void {
    this.byWorkspace.clear();
    this.endpoints.length = 0;
    this.gathered = 0;
  }

  private workspaceLoad(ws: string): number {
    let n = this.byWorkspace.get(ws)?.length ?? 0;
    for (const [w] of this.inFlight.values()) if (w === ws) n++;
    return n;
  }

  private endpointLoad(endpointId: string): number {
    let n = countOf(this.endpoints, endpointId);
    for (const [, e] of this.inFlight.values()) if (e === endpointId) n++;
    return n;
  }

  /** Whether `d` fits its workspace's and its endpoint's share (in flight plus gathered). */
  fits(d: WebhookDeliveryDoc): boolean {
    return (
      !this.inFlight.has(d._id) &&
      this.workspaceLoad(shareOf(d)) < this.caps.perWorkspace &&
      this.endpointLoad(d.endpointId) < this.caps.perEndpoint
    );
  }

  /** Takes `d` as a candidate (after `fits`). */
  add(d: WebhookDeliveryDoc): void {
    const ws = shareOf(d);
    const list = this.byWorkspace.get(ws);
    if (list === undefined) this.byWorkspace.set(ws, [d]);
    else list.push(d);
    this.endpoints.push(d.endpointId);
    this.gathered++;
  }

  /**
   * Enough gathered to choose from: a whole pool's worth, whatever is in flight, so that when
   * only a few slots are free they go round-robin over several workspaces (each contributes at
   * most its share), not to the oldest candidates. Bounds a poll's per-blog order checks too.
   */
  get full(): boolean {
    return this.gathered >= this.caps.total;
  }

  /** Workspaces and endpoints at their cap: the next due page can leave them out. */
  saturated(): { workspaces: string[]; endpoints: string[] } {
    const workspaces = new Set<string>();
    const endpoints = new Set<string>();
    const seen = [
      ...this.inFlight.values(),
      ...this.candidates().map((d) => [shareOf(d), d.endpointId] as const),
    ];
    for (const [ws, e] of seen) {
      // Only real workspace ids go into the query (a delivery without one has no field to match).
      if (!ws.startsWith("~") && this.workspaceLoad(ws) >= this.caps.perWorkspace)
        workspaces.add(ws);
      if (this.endpointLoad(e) >= this.caps.perEndpoint) endpoints.add(e);
    }
    return { workspaces: [...workspaces], endpoints: [...endpoints] };
  }

  private candidates(): WebhookDeliveryDoc[] {
    return [...this.byWorkspace.values()].flat();
  }

  /**
   * The candidates to start, round-robin across workspaces beginning after the one served last,
   * at most the room left in the pool; remembers the last one's workspace for the next poll.
   */
  choose(): WebhookDeliveryDoc[] {
    const room = this.caps.total - this.inFlight.size;
    const order = [...this.byWorkspace.keys()].sort();
    const next =
      this.lastServed === undefined ? 0 : order.findIndex((ws) => ws > (this.lastServed ?? ""));
    const start = next === -1 ? 0 : next;
    const queues = [...order.slice(start), ...order.slice(0, start)].map((ws) => [
      ...(this.byWorkspace.get(ws) ?? []),
    ]);
    const chosen: WebhookDeliveryDoc[] = [];
    while (chosen.length < room && queues.some((q) => q.length > 0)) {
      for (const q of queues) {
        const d = q.shift();
        if (d === undefined || chosen.length >= room) continue;
        chosen.push(d);
      }
    }
    const last = chosen.at(-1);
    if (last !== undefined) this.lastServed = shareOf(last);
    return chosen;
  }
}
