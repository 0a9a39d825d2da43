/**
 * The admin API as `pressroom --server` calls it: openapi-fetch typed by admin.yaml (the same
 * library as the SDK), with an access token, retries, and every answer that is not a success
 * turned into the CLI's one error type (a DomainError, so it exits as the local command would).
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../../../openapi/generated/admin.js";
import { DomainError, type DomainErrorCode } from "../platform/domain-error.js";
import type { RemoteSettings } from "../platform/remote-settings.js";
import { ACCESS_TOKEN_PREFIX, isAccessTokenShaped } from "../tokens/access-tokens-store.js";

export type AdminClient = Client<paths>;

/** Attempts in all, the first included. */
const ATTEMPTS = 4;
/** Backoff before the second attempt, doubled before each next one. */
const FIRST_BACKOFF_MS = 500;
/** The longest `Retry-After` waited out; a longer one ends the retries. */
const MAX_RETRY_AFTER_MS = 60_000;
/** How long one attempt of an ordinary call may take; an import or export has no limit. */
const ATTEMPT_TIMEOUT_MS = 60_000;

const CODE_OF_STATUS: Readonly<Record<number, DomainErrorCode>> = {
  400: "invalid",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  410: "gone",
  412: "stale",
  413: "invalid",
  415: "unsupported_type",
  422: "unprocessable",
  428: "stale",
  429: "throttled",
  501: "not_configured",
  503: "unavailable",
};

/**
 * Whether a call may be sent again after an answer or failure that leaves unknown whether it
 * was done: reads, edits (an edit repeated changes nothing), imports (idempotent by design) and
 * image uploads (the same bytes are one image). A create, release or removal is sent again only
 * when the server said it did nothing (429, 503) or could not be reached at all.
 */
const repeatable = (request: Request): boolean =>
  request.method === "GET" ||
  request.method === "PATCH" ||
  request.method === "PUT" ||
  /\/(?:imports|media)$/.test(new URL(request.url).pathname);

/** Long calls: their attempt has no timeout of its own. */
const long = (request: Request): boolean =>
  /\/(?:imports|export)$/.test(new URL(request.url).pathname);

/** Why a request got no answer: the system's code (ECONNREFUSED), else fetch's own reason. */
function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

/** ECONNREFUSED and its kin: the request never reached a server. */
function neverArrived(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } }).cause?.code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}

function retryAfterMs(response: Response): number | null {
  const raw = response.headers.get("retry-after");
  if (raw === null || !/^\d{1,6}$/.test(raw)) return null;
  return Number(raw) * 1000;
}

export interface RemoteOptions {
  /** Waits between attempts; tests pass their own. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Told of each retry (the CLI prints it on stderr). */
  readonly onRetry?: (line: string) => void;
}

/** A fetch that retries as described above; the request's body is sent again from a clone. */
function retryingFetch(options: RemoteOptions): (request: Request) => Promise<Response> {
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt === ATTEMPTS;
      const sent = last ? request : request.clone();
      let wait = FIRST_BACKOFF_MS * 2 ** (attempt - 1);
      let why: string;
      try {
        const response = await fetch(
          long(sent)
            ? sent
            : new Request(sent, { signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) }),
        );
        const notDone = response.status === 429 || response.status === 503;
        const unknown = response.status >= 500 && !notDone && repeatable(request);
        if (last || !(notDone || unknown)) return response;
        const after = retryAfterMs(response);
        if (after !== null && after > MAX_RETRY_AFTER_MS) return response;
        if (after !== null) wait = Math.max(wait, after);
        await response.body?.cancel();
        why = `HTTP ${response.status}`;
      } catch (err) {
        if (last || !(neverArrived(err) || repeatable(request))) throw err;
        why = reasonOf(err);
      }
      options.onRetry?.(`${why}; trying again in ${(wait / 1000).toFixed(1)} s`);
      await sleep(wait);
    }
  };
}

/** The admin API of `settings.server`, authenticated by its access token. */
export function adminClient(settings: RemoteSettings, options: RemoteOptions = {}): AdminClient {
  if (!isAccessTokenShaped(settings.token)) {
    throw new DomainError(
      "invalid",
      `PRESSROOM_TOKEN is not a whole access token (${ACCESS_TOKEN_PREFIX}…; its checksum does not match: mistyped or cut?).`,
    );
  }
  const base = settings.server.href.replace(/\/+$/, "");
  return createClient<paths>({
    baseUrl: `${base}/api/admin`,
    headers: { authorization: `Bearer ${settings.token}`, accept: "application/json" },
    fetch: retryingFetch(options),
  });
}

/**
 * The data of a call, or its failure as a DomainError with the server's message (which never
 * holds the token): the statuses the local command's errors would have, the exit code alike.
 */
export async function answerOf<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
  server: URL,
): Promise<T> {
  const data = await outcomeOf(call, server);
  if (data === undefined) throw new Error(`${server.origin} answered without a body.`);
  return data;
}

/** `answerOf` for a call whose success has no body (204). */
export async function doneOf(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
  server: URL,
): Promise<void> {
  await outcomeOf(call, server);
}

async function outcomeOf<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
  server: URL,
): Promise<T | undefined> {
  let outcome: { data?: T; error?: unknown; response: Response };
  try {
    outcome = await call;
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new Error(`Cannot reach ${server.origin}: ${reasonOf(err)}.`);
  }
  const { data, error, response } = outcome;
  if (response.ok) return data;
  const message =
    typeof (error as { message?: unknown })?.message === "string"
      ? (error as { message: string }).message
      : `HTTP ${response.status}`;
  const code = CODE_OF_STATUS[response.status];
  if (response.status === 401) {
    throw new DomainError(
      "unauthenticated",
      `${server.origin} refused PRESSROOM_TOKEN (expired, revoked, or not of this server): ${message}`,
    );
  }
  if (code === undefined)
    throw new Error(`${server.origin} answered ${response.status}: ${message}`);
  throw new DomainError(code, message);
}
