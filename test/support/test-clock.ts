/**
 * A clock for the server under test that runs with real time plus an offset the test moves
 * forward: "an hour later" without waiting an hour (the app's `testHooks.now`).
 */
export function offsetClock() {
  let offsetMs = 0;
  return {
    now: (): number => Date.now() + offsetMs,
    advance(ms: number): void {
      offsetMs += ms;
    },
  };
}

export const SECOND = 1000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
