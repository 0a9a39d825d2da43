import { DomainError } from "../../server/src/platform/domain-error.js";

/**
 * Jobs for a queue or pool under test that record their start and run until the test ends
 * them: `job(name)` is the work to hand to the queue, `started` the names in the order they
 * began, `end(name)` finishes one and lets the queue start what comes next.
 */
export function heldJobs() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const job = (name: string) => (): Promise<string> =>
    new Promise<string>((resolve) => {
      started.push(name);
      finish.set(name, () => resolve(name));
    });
  const end = async (name: string): Promise<void> => {
    finish.get(name)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, job, end };
}

/** The DomainError `fn` throws at once; fails the test when it throws nothing or another error. */
export function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error("not refused");
}
