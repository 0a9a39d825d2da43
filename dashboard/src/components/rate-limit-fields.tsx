import { adminLimits } from "../../../openapi/generated/admin-limits.js";
import { Field } from "./field.js";
import type { FieldErrors } from "./form-check.js";

/** The bounds of a RateLimit, from admin.yaml (through openapi/generated/admin-limits.ts). */
const BOUNDS = adminLimits.updateKey.rateLimit.properties;

export interface RateLimitDraft {
  requests: string;
  windowSeconds: string;
}

export type RateLimitErrors = FieldErrors<keyof RateLimitDraft>;

interface RateLimitFieldsProps {
  draft: RateLimitDraft;
  onChange: (draft: RateLimitDraft) => void;
  disabled?: boolean;
  /** Inline errors from `checkLimit`, shown under their fields. */
  errors?: RateLimitErrors;
}

/** A whole number within [min, max], else what to write instead. */
function checkWhole(value: string, what: string, min: number, max: number): string | undefined {
  const n = Number(value);
  if (value.trim() === "") return `Enter the number of ${what}.`;
  if (!Number.isInteger(n) || n < min || n > max) {
    return `Enter a whole number from ${min} to ${max.toLocaleString("en")}.`;
  }
  return undefined;
}

/** The draft's problems, field by field, against admin.yaml's bounds (checked on submit). */
export function checkLimit(draft: RateLimitDraft): RateLimitErrors {
  const errors: RateLimitErrors = {};
  const requests = checkWhole(
    draft.requests,
    "requests",
    BOUNDS.requests.minimum,
    BOUNDS.requests.maximum,
  );
  const windowSeconds = checkWhole(
    draft.windowSeconds,
    "seconds",
    BOUNDS.windowSeconds.minimum,
    BOUNDS.windowSeconds.maximum,
  );
  if (requests) errors.requests = requests;
  if (windowSeconds) errors.windowSeconds = windowSeconds;
  return errors;
}

/** Requests per window, as two whole numbers within the API's bounds. */
export function RateLimitFields(props: RateLimitFieldsProps) {
  const { draft, onChange, disabled = false, errors = {} } = props;
  return (
    <div class="limit-fields">
      <Field
        label="Requests"
        hint={`${BOUNDS.requests.minimum} to ${BOUNDS.requests.maximum.toLocaleString("en")}`}
        error={errors.requests}
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
        error={errors.windowSeconds}
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
