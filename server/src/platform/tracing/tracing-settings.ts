/** OpenTelemetry tracing, from the standard `OTEL_*` variables (README, "Tracing"). */
export interface TracingSettings {
  /** Where spans are POSTed: OTLP over HTTP, JSON. */
  readonly url: string;
  /** OTEL_EXPORTER_OTLP_TRACES_HEADERS, else OTEL_EXPORTER_OTLP_HEADERS (`k=v,k2=v2`). */
  readonly headers: Readonly<Record<string, string>>;
  /** OTEL_SERVICE_NAME, default "pressroom". */
  readonly serviceName: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Tracing is on when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as is) or OTEL_EXPORTER_OTLP_ENDPOINT
 * (`/v1/traces` appended) is set, unless OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 * Spans go over HTTP as JSON only: another OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL is refused
 * rather than silently replaced. Called by platform/config.ts with its env; pushes problems, never throws.
 */
export function parseTracing(env: Env, problems: string[]): TracingSettings | undefined {
  const str = (name: string): string | undefined => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === "" ? undefined : raw;
  };
  if (str("OTEL_SDK_DISABLED")?.toLowerCase() === "true") return undefined;
  const exporter = str("OTEL_TRACES_EXPORTER");
  if (exporter === "none") return undefined;
  const specific = str("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const base = str("OTEL_EXPORTER_OTLP_ENDPOINT");
  if (specific === undefined && base === undefined) return undefined;
  if (exporter !== undefined && exporter !== "otlp") {
    problems.push(`OTEL_TRACES_EXPORTER must be "otlp" or "none" (got "${exporter}")`);
  }
  const protocol = str("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? str("OTEL_EXPORTER_OTLP_PROTOCOL");
  if (protocol !== undefined && protocol !== "http/json") {
    problems.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be "http/json": Pressroom sends spans over HTTP as JSON (got "${protocol}")`,
    );
  }
  const url = specific ?? `${(base ?? "").replace(/\/+$/, "")}/v1/traces`;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("scheme");
  } catch {
    problems.push(
      `${specific === undefined ? "OTEL_EXPORTER_OTLP_ENDPOINT" : "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} must be an http(s) URL`,
    );
  }
  const rawHeaders = str("OTEL_EXPORTER_OTLP_TRACES_HEADERS") ?? str("OTEL_EXPORTER_OTLP_HEADERS");
  const headers: Record<string, string> = {};
  for (const pair of rawHeaders?.split(",") ?? []) {
    const at = pair.indexOf("=");
    const name = pair.slice(0, at).trim();
    let value = "";
    try {
      value = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      value = "";
    }
    if (at < 1 || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name) || value === "") {
      // Never echo the value: headers usually carry a credential.
      problems.push("OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs separated by commas");
      break;
    }
    headers[name] = value;
  }
  return { url, headers, serviceName: str("OTEL_SERVICE_NAME") ?? "pressroom" };
}
