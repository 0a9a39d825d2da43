import { ConfigError } from "./config.js";

/**
 * Where `pressroom --server` sends its calls and with what (README, "Operator CLI", remote
 * mode): the server's origin, and an access token (`pr_pat_…`, admin.yaml `AccessToken`).
 */
export interface RemoteSettings {
  /** `--server` or PRESSROOM_SERVER: the server's origin (and path prefix, if it has one). */
  readonly server: URL;
  /**
   * PRESSROOM_TOKEN, never a flag (ps and shell history would show it): sent in
   * `Authorization: Bearer` only, never logged, never quoted in an error.
   */
  readonly token: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The shape of an access token: its prefix, then base62 (tokens/access-tokens-store.ts). */
const TOKEN = /^pr_pat_[A-Za-z0-9]{42}$/;

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Remote mode's settings, or undefined when neither `--server` nor PRESSROOM_SERVER is given
 * (the CLI then works on the database). Throws ConfigError naming every problem.
 */
export function loadRemoteSettings(
  env: Env,
  serverFlag: string | undefined,
): RemoteSettings | undefined {
  const raw = serverFlag ?? (env.PRESSROOM_SERVER?.trim() || undefined);
  if (raw === undefined) return undefined;
  const problems: string[] = [];
  let server: URL | undefined;
  try {
    server = new URL(raw);
  } catch {
    problems.push(`--server must be a URL such as https://pressroom.example.com (got "${raw}")`);
  }
  if (server !== undefined) {
    if (server.protocol !== "https:" && server.protocol !== "http:") {
      problems.push("--server must be an http or https URL");
    } else if (server.protocol === "http:" && !LOOPBACK.test(server.hostname)) {
      // The token would cross the network in clear: only this machine is spared TLS.
      problems.push(
        "--server must use https (the token would travel in clear); http only for localhost",
      );
    }
    if (
      server.username !== "" ||
      server.password !== "" ||
      server.search !== "" ||
      server.hash !== ""
    ) {
      problems.push(
        "--server takes no user, password, query or fragment: the token goes in PRESSROOM_TOKEN",
      );
    }
  }
  const token = env.PRESSROOM_TOKEN?.trim() ?? "";
  if (token === "") {
    problems.push(
      "PRESSROOM_TOKEN must hold an access token (pr_pat_…; Account → Access tokens in the dashboard)",
    );
  } else if (!TOKEN.test(token)) {
    problems.push("PRESSROOM_TOKEN is not an access token (they start with pr_pat_; not shown)");
  }
  if (problems.length > 0 || server === undefined) {
    throw new ConfigError(`Invalid remote settings:\n  - ${problems.join("\n  - ")}`);
  }
  return { server, token };
}
