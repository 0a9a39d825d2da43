/**
 * Admin API calls as the dashboard makes them (session cookie, Origin), for the benches that
 * reach Pressroom over HTTP only, and the percentiles they report.
 */
export interface Answer<T> {
  readonly status: number;
  readonly body: T;
  readonly ms: number;
}

export type AdminCall = <T>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Readonly<Record<string, string>>,
) => Promise<Answer<T>>;

/**
 * `If-Match: *`, which every blog write (edit, release, unrelease, remove) must send (admin.yaml,
 * "Conditional writes"): the write applies to whichever version is current. Older builds ignore it.
 */
export const ANY_VERSION: Readonly<Record<string, string>> = { "if-match": "*" };

/** Admin API calls as the dashboard makes them; the session cookie set by the server is kept. */
export function adminClient(base: string): AdminCall {
  let cookie = "";
  return async <T>(
    method: string,
    p: string,
    body?: unknown,
    headers: Readonly<Record<string, string>> = {},
  ): Promise<Answer<T>> => {
    const started = performance.now();
    const res = await fetch(`${base}/api/admin${p}`, {
      method,
      headers: { "content-type": "application/json", origin: base, cookie, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.get("set-cookie");
    if (set !== null) cookie = set.split(";")[0] ?? "";
    const text = await res.text();
    const ms = performance.now() - started;
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed as T, ms };
  };
}

/** `answer`'s body, or an error naming the call when it did not succeed. */
export function ok<T>(what: string, answer: Answer<T>): T {
  if (answer.status >= 300) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return answer.body;
}

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};
