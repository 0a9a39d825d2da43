import { adminLimits } from "../../../openapi/generated/admin-limits.js";
import { Field } from "./field.js";

/** The bounds of a RateLimit, from admin.yaml (through openapi/generated/admin-limits.ts). */
const BOUNDS = adminLimits.updateKey.rateLimit.properties;

export interface RateLimitDraft {
  requests: string;
  windowSeconds: string;
}

interface RateLimitFieldsProps {
  draft: RateLimitDraft;
  onChange: (draft: RateLimitDraft) => void;
  disabled?: boolean;
}

/** Requests per window, as two whole numbers within the API's bounds. */
export function RateLimitFields({ draft, onChange, disabled = false }: RateLimitFieldsProps) {
  return (
    <div class="limit-fields">
      <Field
        label="Requests"
        hint={`${BOUNDS.requests.minimum} to ${BOUNDS.requests.maximum.toLocaleString("en")}`}
      >
        {(p) => (
          <input
            {...p}
            type="number"
            inputMode="numeric"
            required
            disabled={disabled}
            min={BOUNDS.requests.minimum}
            max={BOUNDS.requests.maximum}
            step={1}
            value={draft.requests}
            onInput={(e) => onChange({ ...draft, requests: e.currentTarget.value })}
          />
        )}
      </Field>
      <Field
        label="Per window of (seconds)"
        hint={`${BOUNDS.windowSeconds.minimum} to ${BOUNDS.windowSeconds.maximum.toLocaleString("en")}; 60 is a minute`}
      >
        {(p) => (
          <input
            {...p}
            type="number"
            inputMode="numeric"
            required
            disabled={disabled}
            min={BOUNDS.windowSeconds.minimum}
            max={BOUNDS.windowSeconds.maximum}
            step={1}
            value={draft.windowSeconds}
            onInput={(e) => onChange({ ...draft, windowSeconds: e.currentTarget.value })}
          />
        )}
      </Field>
    </div>
  );
}

export const draftOf = (
  limit: { requests: number; windowSeconds: number } | null,
): RateLimitDraft =>
  limit === null
    ? { requests: "", windowSeconds: "60" }
    : { requests: String(limit.requests), windowSeconds: String(limit.windowSeconds) };

/** The draft as the API's RateLimit (the server checks the bounds again). */
export const limitOf = (draft: RateLimitDraft) => ({
  requests: Number(draft.requests),
  windowSeconds: Number(draft.windowSeconds),
});
