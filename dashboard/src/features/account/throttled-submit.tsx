import { ErrorMessage } from "../../components/status.js";
import type { Throttle } from "./throttle.js";

interface ThrottledSubmitProps {
  /** What the last submit was refused for, if anything. */
  error: string | null;
  throttle: Throttle;
  busy: boolean;
  label: string;
  /** The label while the request runs ("Signing in…"). */
  busyLabel: string;
}

/**
 * The end of a signed-out form that the server throttles (sign-in, asking for a reset link,
 * using one): what went wrong, focused, and a submit button that counts down while held.
 */
export function ThrottledSubmit({ error, throttle, busy, label, busyLabel }: ThrottledSubmitProps) {
  return (
    <>
      {error && <ErrorMessage message={error} focus />}
      {throttle.message !== null && <ErrorMessage message={throttle.message} focus />}
      <button
        type="submit"
        class="button primary block"
        disabled={busy || throttle.countdown !== null}
      >
        {throttle.countdown ?? (busy ? busyLabel : label)}
      </button>
    </>
  );
}
