/**
 * When the primary starts a crashed worker again, and when it gives up (README, "Workers"): the
 * replacement of a worker that crashed now and then is started after a short pause; crashes that
 * come in quick succession (a bug on every request, a database refusing every start) wait longer
 * each time, and the fifth within a minute stops the whole server with a non-zero exit, for the
 * service manager above it (systemd, Kubernetes) to see and handle. A worker that stopped
 * gracefully (exit 0: a signal sent to it alone) is replaced without counting (supervisor.ts).
 */

/** The window in which crashes are counted. */
export const CRASH_WINDOW_MS = 60_000;
/** This many crashes within the window: the primary gives up. */
export const MAX_CRASHES = 5;
/** The pause before the first replacement; it doubles with each crash in the window. */
export const FIRST_DELAY_MS = 100;

export type RestartDecision = { readonly restartInMs: number } | { readonly giveUp: string };

export class RestartPolicy {
  readonly #crashes: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** A worker exited without being asked to: when to start its replacement, or why not to. */
  crashed(): RestartDecision {
    const at = this.now();
    this.#crashes.push(at);
    while ((this.#crashes[0] ?? at) <= at - CRASH_WINDOW_MS) this.#crashes.shift();
    const recent = this.#crashes.length;
    if (recent >= MAX_CRASHES) {
      return {
        giveUp: `${recent} worker crashes within ${CRASH_WINDOW_MS / 1000} s`,
      };
    }
    return { restartInMs: FIRST_DELAY_MS * 2 ** (recent - 1) };
  }
}
