import { ConfigError } from "../platform/config.js";
import { DomainError, type DomainErrorCode } from "../platform/domain-error.js";

/**
 * The exit code of each domain error code (platform/domain-error.ts). Every refusal exits 1 today, with
 * its message (README, "Operator CLI": errors exit non-zero); usage errors exit 2 (main.ts).
 * A new code must be given one here.
 */
export const EXIT_CODE_OF: Readonly<Record<DomainErrorCode, number>> = {
  invalid: 1,
  unauthenticated: 1,
  forbidden: 1,
  not_found: 1,
  conflict: 1,
  unprocessable: 1,
  throttled: 1,
  unavailable: 1,
  gone: 1,
  stale: 1,
  not_configured: 1,
  too_large: 1,
  unsupported_type: 1,
};

/** What the operator is told when a command fails, and the exit code. */
export function failureOf(err: unknown): { message: string; exitCode: number } {
  if (err instanceof DomainError) return { message: err.message, exitCode: EXIT_CODE_OF[err.code] };
  if (err instanceof ConfigError) return { message: err.message, exitCode: 1 };
  return { message: `Error: ${(err as Error).message}`, exitCode: 1 };
}
