import createClient from "openapi-fetch";
import type { components, paths } from "../../openapi/generated/admin.js";

// Every shape comes from openapi/admin.yaml (through the generated types); none is hand-written.
type Schemas = components["schemas"];
export type Me = Schemas["Me"];
export type SessionStatus = Schemas["SessionStatus"];
export type TwoStepChallenge = Schemas["TwoStepChallenge"];
export type TwoStepEnrolment = Schemas["TwoStepEnrolment"];
export type Workspace = Schemas["Workspace"];
export type ApiKey = Schemas["ApiKey"];
export type MintedKey = Schemas["MintedKey"];
export type RateLimit = Schemas["RateLimit"];
export type WorkspaceRateLimit = Schemas["WorkspaceRateLimit"];
export type AuditEntry = Schemas["AuditEntry"];
export type AuditAction = Schemas["AuditAction"];
export type AdminBlog = Schemas["AdminBlog"];
export type Author = Schemas["Author"];
export type AuthorInput = Schemas["AuthorInput"];
export type AuthorPatch = Schemas["AuthorPatch"];
export type BlogStatus = Schemas["BlogStatus"];
export type BlogCounts = Schemas["BlogCounts"];
/** The blog list's orders (admin.yaml, listAdminBlogs `sort`). */
export type BlogSort = NonNullable<
  NonNullable<paths["/workspaces/{workspaceId}/blogs"]["get"]["parameters"]["query"]>["sort"]
>;
export type BlogInput = Schemas["BlogInput"];
export type BlogPatch = Schemas["BlogPatch"];
export type BlogRevision = Schemas["BlogRevision"];
export type BlogSchedule = Schemas["BlogSchedule"];
export type BlogRevisionSummary = Schemas["BlogRevisionSummary"];
export type RevisionPage = {
  data: BlogRevisionSummary[];
  nextCursor: string | null;
};
export type SetupRequest = Schemas["SetupRequest"];
export type Member = Schemas["Member"];
export type Role = Schemas["Role"];
export type Invitation = Schemas["Invitation"];
export type CreatedInvitation = Schemas["CreatedInvitation"];
export type InvitationPreview = Schemas["InvitationPreview"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookEndpointWithSecret = Schemas["WebhookEndpointWithSecret"];
export type WebhookEventType = Schemas["WebhookEventType"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookAttempt = Schemas["WebhookAttempt"];
export type Media = Schemas["Media"];
export type MediaList = Schemas["MediaList"];
export type MediaInUse = Schemas["MediaInUse"];

/**
 * The admin API, same origin: the session cookie goes with every request, and the browser adds
 * the `Origin` header the server checks on POST, PATCH and DELETE.
 */
export const api = createClient<paths>({ baseUrl: "/api/admin", credentials: "same-origin" });

/** A failed call: the server's `{message}`, its status (0 when the server was not reached). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** From `Retry-After`, on 429. */
    readonly retryAfterSeconds: number | null = null,
    /** The answer's JSON body as sent (412: `{message, current}`); null when there was none. */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

let onSessionEnded: (() => void) | null = null;
/** Called when a request answers 401 while signed in (the session expired or was deleted). */
export function setSessionEndedHandler(handler: (() => void) | null): void {
  onSessionEnded = handler;
}

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function toApiError(error: unknown, response: Response): ApiError {
  const message =
    typeof error === "object" && error !== null && "message" in error
      ? String(error.message)
      : `The server answered ${response.status} ${response.statusText}`.trim();
  const retryAfter = Number(response.headers.get("retry-after"));
  return new ApiError(
    message,
    response.status,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    error ?? null,
  );
}

/**
 * Whether the server is reachable, as far as this page knows: false after a request failed with
 * a network error (the server was not reached at all), true again once a request sent after
 * that failure gets any answer (one sent before it, answered later, proves nothing new). The
 * offline banner listens.
 */
let reachable = true;
/** Requests are numbered as they start; the number the latest network failure was seen at. */
let requestCount = 0;
let failedAt = -1;
const reachabilityListeners = new Set<(reachable: boolean) => void>();
function setReachable(now: boolean): void {
  if (now === reachable) return;
  reachable = now;
  for (const listener of reachabilityListeners) listener(now);
}
export const serverReachable = (): boolean => reachable;
/** The browser says the network is back: an earlier failure says nothing about now. */
export function forgetNetworkFailure(): void {
  failedAt = requestCount;
  setReachable(true);
}
/** Calls `listener` whenever `serverReachable()` changes; returns the unsubscribe. */
export function onReachabilityChange(listener: (reachable: boolean) => void): () => void {
  reachabilityListeners.add(listener);
  return () => reachabilityListeners.delete(listener);
}

/** Admin requests sent and not yet answered. */
let inFlight = 0;

/**
 * Resolves once no admin request has been in flight for 100 ms (so the requests that the last
 * answers set off have started and ended too), or after `maxMs` whatever happens. Signing out
 * waits for it: a request still on its way when the session ends would come back 401, a failed
 * request in the console of an ordinary sign-out.
 */
export async function requestsSettled(maxMs = 3000): Promise<void> {
  const until = Date.now() + maxMs;
  let quietSince = Number.POSITIVE_INFINITY;
  while (Date.now() < until) {
    if (inFlight > 0) quietSince = Number.POSITIVE_INFINITY;
    else if (quietSince === Number.POSITIVE_INFINITY) quietSince = Date.now();
    else if (Date.now() - quietSince >= 100) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A 401 of accepting an invitation with a password is a wrong password (or no such account: one
 * answer), not an ended session: the session of this browser, if any, goes on.
 */
const refusesCredentials = (response: Response): boolean =>
  response.url !== "" && new URL(response.url).pathname === "/api/admin/invitations/accept";

async function settle<T>(request: Promise<Outcome<T>>): Promise<Outcome<T>> {
  const started = requestCount++;
  let outcome: Outcome<T>;
  inFlight++;
  try {
    outcome = await request;
  } catch (err) {
    // A request this page cancelled on purpose (stale preview) says nothing about the network.
    if (!(err instanceof DOMException && err.name === "AbortError")) {
      failedAt = requestCount;
      setReachable(false);
    }
    throw new ApiError("Could not reach the server. Check your connection and try again.", 0);
  } finally {
    inFlight--;
  }
  if (started >= failedAt) setReachable(true);
  if (!outcome.response.ok) {
    if (outcome.response.status === 401 && !refusesCredentials(outcome.response)) {
      onSessionEnded?.();
    }
    throw toApiError(outcome.error, outcome.response);
  }
  return outcome;
}

/** The body of a successful call; otherwise throws an `ApiError` with the server's message. */
export async function call<T>(request: Promise<Outcome<T>>): Promise<T> {
  const { data } = await settle(request);
  return data as T;
}

/** The body of a successful call with its status (201 made, 200 found); else an `ApiError`. */
export async function answered<T>(
  request: Promise<Outcome<T>>,
): Promise<{ data: T; status: number }> {
  const { data, response } = await settle(request);
  return { data: data as T, status: response.status };
}

/**
 * For calls that answer without a body: 204 No Content, or 202 Accepted with an empty one
 * (`requestPasswordReset`). openapi-fetch leaves an empty body unread, and Chromium reports a
 * response whose body the page never read as a failed request (`net::ERR_ABORTED`): it is read
 * here, so the request ends as answered.
 */
export async function send(request: Promise<Outcome<unknown>>): Promise<void> {
  const { response } = await settle(request);
  // The answer is in; an empty body that fails to arrive changes nothing.
  if (!response.bodyUsed) await response.arrayBuffer().catch(() => undefined);
}

/** The message to show for anything thrown. */
export const messageOf = (err: unknown): string =>
  err instanceof Error ? err.message : "Something went wrong.";
