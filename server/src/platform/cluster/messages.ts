/**
 * What the primary and its workers say to each other over the cluster's IPC channel (README,
 * "Workers"). Each message carries `pressroom`, so that other users of the channel (prom-client's
 * metric requests) pass by.
 */

/** Worker → primary: this worker listens at `url` and serves. */
export interface ReadyMessage {
  readonly pressroom: "ready";
  readonly url: string;
}

/** Primary → workers: how many of the workers it keeps are serving now. */
export interface ReadinessMessage {
  readonly pressroom: "readiness";
  readonly ready: number;
  readonly of: number;
}

const isObject = (m: unknown): m is Record<string, unknown> => typeof m === "object" && m !== null;

export const isReadyMessage = (m: unknown): m is ReadyMessage =>
  isObject(m) && m.pressroom === "ready" && typeof m.url === "string";

export const isReadinessMessage = (m: unknown): m is ReadinessMessage =>
  isObject(m) &&
  m.pressroom === "readiness" &&
  typeof m.ready === "number" &&
  typeof m.of === "number";
