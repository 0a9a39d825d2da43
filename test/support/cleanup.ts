/**
 * Cleanups registered while a test file runs (from inside beforeAll, where vitest ignores new
 * afterAll hooks), run last-in first-out when the file ends, by the hook in setup-file.ts.
 */
const cleanups: (() => Promise<void> | void)[] = [];

export function onFileEnd(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

export async function runFileCleanups(): Promise<void> {
  const errors: unknown[] = [];
  for (let c = cleanups.pop(); c !== undefined; c = cleanups.pop()) {
    try {
      await c();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
}
