/** A tiny browser-like client for the admin API: keeps the session cookie, sends Origin. */
export interface AdminResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export class AdminClient {
  cookie: string | undefined;

  constructor(
    readonly baseUrl: string,
    /** The Origin header sent on state-changing requests; null sends none. */
    readonly origin: string | null = baseUrl,
  ) {}

  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<AdminResponse<T>> {
    const json = body === undefined ? undefined : JSON.stringify(body);
    return this.callRaw<T>(method, path, json, extraHeaders);
  }

  /** `call` with a body sent exactly as given: malformed JSON, escapes spelled out, any size. */
  async callRaw<T = Record<string, unknown>>(
    method: string,
    path: string,
    json: string | undefined,
    extraHeaders: Record<string, string> = {},
  ): Promise<AdminResponse<T>> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (json !== undefined) headers["content-type"] = "application/json";
    if (this.cookie !== undefined) headers.cookie = this.cookie;
    if (this.origin !== null && method !== "GET") headers.origin = this.origin;
    const res = await fetch(`${this.baseUrl}/api/admin${path}`, {
      method,
      headers,
      body: json,
    });
    const setCookie = res.headers.get("set-cookie");
    if (setCookie !== null) {
      const pair = setCookie.split(";")[0] ?? "";
      this.cookie = pair.endsWith("=") ? undefined : pair;
    }
    const text = await res.text();
    return {
      status: res.status,
      body: (text === "" ? undefined : JSON.parse(text)) as T,
      headers: res.headers,
    };
  }

  get = <T = Record<string, unknown>>(path: string) => this.call<T>("GET", path);
  post = <T = Record<string, unknown>>(
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => this.call<T>("POST", path, body, headers);
  patch = <T = Record<string, unknown>>(
    path: string,
    body: unknown,
    headers?: Record<string, string>,
  ) => this.call<T>("PATCH", path, body, headers);
  delete = <T = Record<string, unknown>>(path: string, headers?: Record<string, string>) =>
    this.call<T>("DELETE", path, undefined, headers);
  postRaw = <T = Record<string, unknown>>(path: string, json: string) =>
    this.callRaw<T>("POST", path, json);
}

/**
 * A browser at a client address of its own (X-Forwarded-For, which a server started with
 * `TRUST_PROXY: "loopback"` believes): the sign-in throttle counts per client address too, so
 * a file that signs in far more than 20 times gives each browser its own.
 */
export class AddressedClient extends AdminClient {
  static next = 0;
  readonly address: string;
  constructor(url: string) {
    super(url);
    AddressedClient.next += 1;
    this.address = `10.9.${AddressedClient.next >> 8}.${AddressedClient.next & 255}`;
  }
  override callRaw<T = Record<string, unknown>>(
    method: string,
    path: string,
    json: string | undefined,
    extraHeaders: Record<string, string> = {},
  ) {
    return super.callRaw<T>(method, path, json, {
      "x-forwarded-for": this.address,
      ...extraHeaders,
    });
  }
}

/**
 * `If-Match: *` (admin.yaml, "Conditional writes"): a blog write that applies to whichever
 * version is current. Every blog write must name a version; a test that is not about
 * concurrent writers names any.
 */
export const ANY_VERSION: Readonly<Record<string, string>> = { "if-match": "*" };

/** `If-Match` naming the version `blog` was read at: the write applies to that version only. */
export const versionOf = (blog: { version: string }): Record<string, string> => ({
  "if-match": `"${blog.version}"`,
});

export const OWNER = {
  name: "Olive Owner",
  email: "olive@example.com",
  password: "correct horse battery",
  workspaceName: "Olive's newsroom",
};
