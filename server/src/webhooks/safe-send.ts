import { lookup as dnsLookup } from "node:dns/promises";
import * as http from "node:http";
import * as https from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { addressProblem } from "./address-rules.js";
import { bareHost, endpointUrlProblem, isLoopbackHost, type UrlPolicy } from "./endpoint-url.js";
import {
  MAX_BODY_BYTES,
  oneLine,
  redirectNote,
  responseExcerpt,
  seconds,
  sendErrorMessage,
} from "./send-messages.js";

export interface SendRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /**
   * How long resolving the name and connecting (TLS handshake included) may take, within
   * `timeoutMs`; default `timeoutMs`. A receiver that never completes a connection ties up a
   * slot of the delivery pool only this long.
   */
  readonly connectTimeoutMs?: number;
}

/** What became of one attempt: an HTTP answer (any status), or why none came. */
export type SendOutcome =
  | {
      /** A 2xx answer; a redirect (3xx) is never followed and counts as failed. */
      readonly ok: boolean;
      readonly statusCode: number;
      readonly latencyMs: number;
      /** The first 1 KiB of the body as text (control characters replaced); null if empty. */
      readonly responseExcerpt: string | null;
      /** Null, or why an answer does not count ("redirect not followed"). */
      readonly error: string | null;
    }
  | {
      readonly ok: false;
      readonly statusCode: null;
      readonly latencyMs: number | null;
      readonly responseExcerpt: null;
      /** For the delivery log: timeout, refused address, connection error, redirect not followed. */
      readonly error: string;
    };

export type Send = (request: SendRequest) => Promise<SendOutcome>;

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Every address a host name resolves to (default: `dns.lookup` with `all: true`). */
export type Resolve = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface SafeSenderOptions {
  /** Replaces the system resolver (tests: a name that resolves to a private address). */
  readonly resolve?: Resolve;
  /** Extra trusted CA certificates (tests: a receiver with a self-signed certificate). */
  readonly ca?: string | Buffer;
}

const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

class Refused extends Error {}

function failed(error: string, latencyMs: number | null): SendOutcome {
  return { ok: false, statusCode: null, latencyMs, responseExcerpt: null, error: oneLine(error) };
}

/**
 * POSTs one delivery without ever reaching a private, loopback, link-local or metadata address
 * (README, "Webhooks" → "SSRF protection"): the URL is checked again (endpointUrlProblem), its
 * name resolved once, the attempt refused if ANY address it resolves to is refused, and the
 * connection made to exactly the addresses checked (a `lookup` that returns them: no second
 * resolution a rebinding DNS server could answer differently). Redirects are never followed,
 * proxies never used (own agent, no keep-alive: every attempt connects to an address checked
 * for it), at most 64 KiB of the answer read, and the whole attempt — resolution, connection,
 * headers and body — bounded by `timeoutMs`, and resolution plus connection by the shorter
 * `connectTimeoutMs`.
 */
export function safeSender(policy: UrlPolicy, options: SafeSenderOptions = {}): Send {
  const resolve = options.resolve ?? systemResolve;
  return async ({ url, headers, body, timeoutMs, connectTimeoutMs = timeoutMs }) => {
    const problem = endpointUrlProblem(url, policy);
    if (problem !== null) return failed(`refused: ${problem}`, null);
    const target = new URL(url);
    const host = bareHost(target);
    const allowLoopback = policy.allowHttpLoopback && isLoopbackHost(host);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    // Until the connection is made (connected() clears it): then only the whole attempt's limit.
    let connecting = true;
    /** Set when the connect timeout, not the whole attempt's, ended the attempt. */
    let connectTimedOut = false;
    const connectTimer = setTimeout(
      () => {
        if (!connecting || abort.signal.aborted) return;
        connectTimedOut = true;
        abort.abort();
      },
      Math.min(connectTimeoutMs, timeoutMs),
    );
    const connected = () => {
      if (abort.signal.aborted) return;
      connecting = false;
      clearTimeout(connectTimer);
    };
    try {
      const addresses = await withAbort(checkedAddresses(host, allowLoopback, resolve), abort);
      const message = { headers, body };
      return await post(target, addresses, message, abort.signal, options.ca, elapsed, connected);
    } catch (error) {
      if (connectTimedOut) {
        return failed(`could not connect within ${seconds(connectTimeoutMs)}`, elapsed());
      }
      if (abort.signal.aborted) return failed(`timed out after ${seconds(timeoutMs)}`, elapsed());
      if (error instanceof Refused) return failed(`refused: ${error.message}`, null);
      return failed(sendErrorMessage(error), elapsed());
    } finally {
      clearTimeout(timer);
      clearTimeout(connectTimer);
    }
  };
}

async function checkedAddresses(
  host: string,
  allowLoopback: boolean,
  resolve: Resolve,
): Promise<readonly ResolvedAddress[]> {
  // An IP literal was checked with the URL; net.connect does not resolve it.
  if (isIP(host) !== 0) return [{ address: host, family: isIP(host) }];
  const addresses = await resolve(host);
  if (addresses.length === 0) throw Object.assign(new Error("no address"), { code: "ENODATA" });
  for (const { address } of addresses) {
    const problem = addressProblem(address, allowLoopback);
    if (problem !== null) throw new Refused(`${host} resolves to ${problem}`);
  }
  return addresses;
}

function withAbort<T>(work: Promise<T>, abort: AbortController): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("aborted"));
    if (abort.signal.aborted) onAbort();
    abort.signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => abort.signal.removeEventListener("abort", onAbort));
  });
}

/** A `lookup` for net.connect that answers only with the addresses already checked. */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    const first = addresses[0];
    if (lookupOptions.all === true) {
      callback(
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    } else if (first !== undefined) {
      callback(null, first.address, first.family);
    }
  };
}

function post(
  target: URL,
  addresses: readonly ResolvedAddress[],
  message: { headers: Readonly<Record<string, string>>; body: string },
  signal: AbortSignal,
  ca: string | Buffer | undefined,
  elapsed: () => number,
  /** Called once the connection is made (for https, once the TLS handshake is done). */
  connected: () => void,
): Promise<SendOutcome> {
  const payload = Buffer.from(message.body, "utf8");
  const secure = target.protocol === "https:";
  const requestOptions: https.RequestOptions = {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "Pressroom-Webhooks/1",
      ...message.headers,
      "content-length": String(payload.length),
    },
    lookup: pinnedLookup(addresses),
    // Own agent: no pooled socket from another attempt, no proxy from the environment.
    agent: secure ? new https.Agent({ keepAlive: false }) : new http.Agent({ keepAlive: false }),
    signal,
    ...(secure && ca !== undefined ? { ca } : {}),
  };
  return new Promise<SendOutcome>((resolve, reject) => {
    const req = (secure ? https : http).request(target, requestOptions, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        const status = res.statusCode ?? 0;
        if (status < 100 || status > 599) {
          // Node takes any three digits; HTTP has 100-599 (and so has the delivery log).
          resolve(failed(`invalid HTTP status ${status}`, elapsed()));
          return;
        }
        const redirect = status >= 300 && status < 400;
        resolve({
          ok: status >= 200 && status < 300,
          statusCode: status,
          latencyMs: elapsed(),
          responseExcerpt: responseExcerpt(Buffer.concat(chunks)),
          error: redirect ? redirectNote(res.headers.location, target) : null,
        });
      };
      res.on("data", (chunk: Buffer) => {
        if (size >= MAX_BODY_BYTES) return;
        chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
        size += chunk.length;
        if (size >= MAX_BODY_BYTES) {
          // Enough: what the log keeps is the first KiB. Close instead of reading on.
          finish();
          res.destroy();
          req.destroy();
        }
      });
      res.on("end", finish);
      res.on("error", reject);
    });
    req.on("socket", (socket) => {
      const event = secure ? "secureConnect" : "connect";
      // A socket already connected (never here: own agent, no keep-alive) needs no wait.
      if (!socket.connecting && !secure) connected();
      else socket.once(event, connected);
    });
    req.on("error", reject);
    req.end(payload);
  });
}
