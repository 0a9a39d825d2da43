import type { ApiKey } from "../../api.js";
import { zonedTime } from "../../time.js";
import { expiryText } from "./key-text.js";

/**
 * When a key stops working: the relative words ("expires in 3 months", "expired 2 hours ago") in
 * a `<time datetime>`, and under them the exact local date and time with its UTC offset ("Aug
 * 4, 2026, 10:35 PM GMT+2"), so nobody has to guess which day "in 3 months" is. A key that never
 * expires reads "never"; a revoked one has no expiry left to show.
 */
export function KeyExpiry({ apiKey: k, now }: { apiKey: ApiKey; now: number }) {
  if (k.expiresAt === null) return <span class="muted">never</span>;
  if (k.status === "Revoked") return <>{expiryText(k, now)}</>;
  return (
    <>
      <time dateTime={k.expiresAt}>{expiryText(k, now)}</time>
      <span class="sub exact-time">{zonedTime(k.expiresAt)}</span>
    </>
  );
}
