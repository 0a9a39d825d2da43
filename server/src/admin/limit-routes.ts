import type { RateLimitSettings } from "../limits/rate-limit-settings.js";
import type { AdminHandler } from "../platform/http/admin-types.js";
import { signedInUser } from "./guards.js";

/** The workspace's default rate limit (settings; limits/consumer-rate-limit.ts enforces it). */
export function limitHandlers(rateLimits: RateLimitSettings) {
  const getWorkspaceRateLimit: AdminHandler<"getWorkspaceRateLimit"> = async (req, res) => {
    res.json(await rateLimits.of(req.params.workspaceId));
  };

  /** Owner only (the router's guard). */
  const setWorkspaceRateLimit: AdminHandler<"setWorkspaceRateLimit"> = async (req, res) => {
    res.json(
      await rateLimits.set(req.params.workspaceId, req.body.rateLimit ?? null, signedInUser(res)),
    );
  };

  return { getWorkspaceRateLimit, setWorkspaceRateLimit };
}
