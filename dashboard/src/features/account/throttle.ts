import { useEffect, useState } from "preact/hooks";

/** "45 s", or "15 min" for longer waits. */
export const inAWhile = (seconds: number): string =>
  seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
/** "45 s", or "14:05" for longer waits. */
const clock = (seconds: number): string =>
  seconds < 120
    ? `${seconds} s`
    : `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

export interface Throttle {
  /** While held for the key now typed: what to say, else null. */
  message: string | null;
  /** While held: the submit button's label ("Try again in 0:45"), else null. */
  countdown: string | null;
  /**
   * A 429 answered for `key` (the email typed): holds the form for `Retry-After` seconds (60
   * when the server named none), with the message `describe` makes of the wait ("15 min").
   */
  hold: (key: string, retryAfterSeconds: number | null, describe: (wait: string) => string) => void;
}

/**
 * The wait of a throttled signed-out form (sign-in, a reset link): the server's `Retry-After`
 * counted down each second, for the key it was answered for (typing another email lifts it,
 * as the server counts each email apart).
 */
export function useThrottle(key: string): Throttle {
  const [held, setHeld] = useState<{ key: string; until: number; message: string } | null>(null);
  const [now, setNow] = useState(Date.now);

  useEffect(() => {
    if (held === null) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= held.until) setHeld(null);
    }, 1000);
    return () => clearInterval(timer);
  }, [held]);

  const holding = held !== null && held.key === key;
  const wait = holding ? Math.max(1, Math.ceil((held.until - now) / 1000)) : 0;
  return {
    message: holding ? held.message : null,
    countdown: holding ? `Try again in ${clock(wait)}` : null,
    hold: (heldKey, retryAfterSeconds, describe) => {
      const seconds = retryAfterSeconds ?? 60;
      setHeld({
        key: heldKey,
        until: Date.now() + seconds * 1000,
        message: describe(inAWhile(seconds)),
      });
      setNow(Date.now());
    },
  };
}
