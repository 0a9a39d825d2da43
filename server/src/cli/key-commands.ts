import { keyStatusAt } from "../keys/key-view.js";
import type { ApiKeyDoc, RateLimitSetting } from "../platform/db/collections.js";
import type { Stores } from "../stores.js";
import { type CommandInput, optional, positional, required, UsageError } from "./args.js";
import { type Output, table } from "./output.js";

type Command = (stores: Stores, input: CommandInput, out: Output) => Promise<void>;

const iso = (at: Date | null | undefined): string | null => at?.toISOString() ?? null;

/** What the CLI prints of a key (never its hash): its status as of now, expiry and successor. */
export const keyOut = (k: ApiKeyDoc, now: Date) => ({
  id: k.keyId,
  name: k.name,
  prefix: k.prefix,
  kind: k.kind ?? "live",
  status: keyStatusAt(k, now),
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: iso(k.lastUsedAt),
  expiresAt: iso(k.expiresAt),
  rolledTo: k.rolledTo ?? null,
});

const UNIT_MS = { h: 3_600_000, d: 86_400_000 } as const;

/** `30d`, `12h`: a duration in whole hours or days, in milliseconds. */
export function parseDuration(option: string, raw: string): number {
  const match = /^(\d{1,5})([hd])$/.exec(raw.trim());
  const unit = match?.[2] as keyof typeof UNIT_MS | undefined;
  if (match === null || unit === undefined || Number(match[1]) === 0) {
    throw new UsageError(`--${option} takes a number of hours or days, such as 24h or 30d.`);
  }
  return Number(match[1]) * UNIT_MS[unit];
}

/** `--expires-in 30d` or `--expires-at 2027-03-01T00:00:00Z`; neither: never. */
function expiryOf(input: CommandInput, now: Date): Date | null {
  const expiresIn = optional(input, "expires-in");
  const expiresAt = optional(input, "expires-at");
  if (expiresIn !== undefined && expiresAt !== undefined) {
    throw new UsageError("Give --expires-in or --expires-at, not both.");
  }
  if (expiresIn !== undefined)
    return new Date(now.getTime() + parseDuration("expires-in", expiresIn));
  if (expiresAt === undefined) return null;
  const at = new Date(expiresAt);
  if (!/^\d{4}-\d{2}-\d{2}/.test(expiresAt) || Number.isNaN(at.getTime())) {
    throw new UsageError(
      "--expires-at takes an ISO date or date-time, such as 2027-03-01T00:00:00Z.",
    );
  }
  return at;
}

/** `--rate 100/60` (requests per seconds) or `--rate default`. */
function rateOf(input: CommandInput): RateLimitSetting | null {
  const raw = required(input, "rate").trim();
  if (raw === "default") return null;
  const match = /^(\d{1,7})\/(\d{1,5})$/.exec(raw);
  if (match === null) {
    throw new UsageError("--rate takes REQUESTS/SECONDS (such as 100/60) or default.");
  }
  // Bounds are the store's (key-rules.ts), as for the admin API.
  return { requests: Number(match[1]), windowSeconds: Number(match[2]) };
}

const describeRate = (limit: RateLimitSetting | null, otherwise: string): string =>
  limit === null ? otherwise : `${limit.requests} requests per ${limit.windowSeconds} s`;

const STATUSES = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

/** The key commands of the CLI, by their words. */
export const KEY_COMMANDS: Readonly<Record<string, Command>> = {
  "key mint": async (stores, input, out) => {
    const expiresAt = expiryOf(input, stores.keys.now());
    const { id, key, doc } = await stores.keys.mint(
      required(input, "workspace"),
      required(input, "name"),
      null,
      // --preview: a preview key (openapi.yaml, "Preview"), which reads /api/preview only.
      { expiresAt, kind: input.options.preview === true ? "preview" : "live" },
    );
    const expiry = expiresAt === null ? "" : ` It expires at ${expiresAt.toISOString()}.`;
    const kind =
      doc.kind === "preview" ? " It reads drafts and pending changes at /api/preview." : "";
    out.result(
      {
        id,
        key,
        prefix: doc.prefix,
        kind: doc.kind ?? "live",
        ...(expiresAt === null ? {} : { expiresAt: iso(expiresAt) }),
      },
      `Minted key ${id} (${doc.prefix}…).${expiry}${kind}\n\n  ${key}\n\nThis is the only time the key is shown: store it now. It cannot be recovered.`,
    );
  },
  "key roll": async (stores, input, out) => {
    const grace = optional(input, "grace") ?? "24h";
    const graceMs = parseDuration("grace", grace);
    const old = positional(input, "KEY_ID");
    const { id, key, doc } = await stores.rollKey(
      required(input, "workspace"),
      old,
      graceMs / 1000,
    );
    out.result(
      { id, key, prefix: doc.prefix, rolledFrom: old, expiresAt: iso(doc.expiresAt) },
      `Rolled key ${old} to ${id} (${doc.prefix}…); ${old} keeps working for ${grace}.\n\n  ${key}\n\nThis is the only time the key is shown: store it now. It cannot be recovered.`,
    );
  },
  "key revoke": async (stores, input, out) => {
    const key = await stores.keys.revoke(required(input, "workspace"), positional(input, "KEY_ID"));
    out.result(
      { id: key.keyId, status: key.status, revokedAt: iso(key.revokedAt) },
      `Revoked key ${key.keyId} (${key.prefix}…). It stops working now.`,
    );
  },
  "key list": async (stores, input, out) => {
    const status = optional(input, "status");
    if (status !== undefined && !(status in STATUSES)) {
      throw new UsageError("--status takes active, expired or revoked.");
    }
    const wanted = status === undefined ? null : STATUSES[status as keyof typeof STATUSES];
    const now = stores.keys.now();
    const keys = (await stores.keys.list(required(input, "workspace")))
      .map((k) => keyOut(k, now))
      .filter((k) => wanted === null || k.status === wanted);
    out.result(
      { keys },
      table(
        ["ID", "NAME", "PREFIX", "STATUS", "CREATED", "LAST USED", "EXPIRES", "ROLLED TO"],
        keys.map((k) => [
          k.id,
          k.name,
          `${k.prefix}…`,
          k.status,
          k.createdAt,
          k.lastUsedAt ?? "never",
          k.expiresAt ?? "never",
          k.rolledTo ?? "",
        ]),
      ),
    );
  },
  "key limit": async (stores, input, out) => {
    const rate = rateOf(input);
    const key = await stores.keys.setRateLimit(
      required(input, "workspace"),
      positional(input, "KEY_ID"),
      rate,
    );
    out.result(
      { id: key.keyId, rateLimit: key.rateLimit ?? null },
      `Key ${key.keyId}: ${describeRate(key.rateLimit ?? null, "the workspace's default limit")}.`,
    );
  },
  "workspace limit": async (stores, input, out) => {
    const limits = await stores.rateLimits.set(required(input, "workspace"), rateOf(input));
    out.result(
      limits,
      `Workspace default: ${describeRate(limits.rateLimit, "the server's default")}.`,
    );
  },
};
