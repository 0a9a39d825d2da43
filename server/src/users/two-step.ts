import type { UserDoc } from "../platform/db/collections.js";
import { conflict, DomainError } from "../platform/domain-error.js";
import type { SecretBox } from "../platform/secret-box.js";
import type { CurrentPasswordCheck } from "../sessions/current-password.js";
import type { SignInThrottle } from "../sessions/sign-in-throttle.js";
import {
  base32Of,
  isRecoveryCode,
  newRecoveryCodes,
  newTotpSecret,
  otpauthUri,
  recoveryCodeHash,
  stepOfCode,
} from "./two-step-codes.js";
import type { TwoStepStore } from "./two-step-store.js";
import type { UsersStore } from "./users-store.js";

/** How long a secret shown by `start` waits for the code that turns it on. */
export const ENROLMENT_LIFETIME_MS = 15 * 60_000;

export const WRONG_APP_CODE_MESSAGE = "Wrong code. Check the app's clock and try the newest code.";
const ON_ALREADY_MESSAGE = "Two-step sign-in is on already.";
const OFF_MESSAGE = "Two-step sign-in is off.";
const NOTHING_WAITING_MESSAGE =
  "No new secret is waiting for a code (it lasts 15 minutes). Start again.";

/** What the account's owners' rule says of turning two-step off (workspaces/owner-two-step.ts). */
export type OwnedRequiring = (userId: string) => Promise<string[]>;

export interface TwoStepStatus {
  readonly enabled: boolean;
  readonly recoveryCodesLeft: number;
}

/** A secret to add to an app, not on yet (admin.yaml, TwoStepEnrolment). */
export interface Enrolment {
  readonly secret: string;
  readonly uri: string;
  readonly expiresAt: Date;
}

/** Who asks, with what (the current password, or the app's code), from where. */
interface Asked {
  readonly userId: string;
  readonly ip: string | undefined;
}

/**
 * Two-step sign-in of an account (admin.yaml, startTwoStep … renewRecoveryCodes, and the code
 * check of signInWithCode). The TOTP secret is sealed for the account (platform/secret-box.ts),
 * recovery codes are kept as hashes, and every secret or code leaves only in the one answer that
 * shows it.
 */
export interface TwoStep {
  start(input: Asked & { currentPassword: string }): Promise<Enrolment>;
  /** Turns it on with the app's first code; the recovery codes, to show once. */
  confirm(input: Asked & { code: string }): Promise<string[]>;
  turnOff(input: Asked & { currentPassword: string }): Promise<void>;
  renewRecoveryCodes(input: Asked & { currentPassword: string }): Promise<string[]>;
  /**
   * The operator's way out for an account that lost its app and its recovery codes
   * (`pressroom user turn-off-two-step`): off without a password; false when it was off.
   */
  forceOff(userId: string): Promise<boolean>;
  /**
   * Whether `code` — the app's, of a step after the last one accepted, or an unused recovery
   * code — is the account's now; a right one is used up (at most once under any concurrency).
   */
  checkCode(user: UserDoc, code: string): Promise<boolean>;
  status(user: Pick<UserDoc, "twoStep">): TwoStepStatus;
}

export function twoStep(deps: {
  store: TwoStepStore;
  box: SecretBox;
  users: Pick<UsersStore, "findById">;
  checkPassword: CurrentPasswordCheck;
  throttle: SignInThrottle;
  ownedRequiring: OwnedRequiring;
  now?: () => number;
}): TwoStep {
  const now = deps.now ?? Date.now;
  const { store, box } = deps;

  /** New recovery codes, written by `write`; "conflict" with `refused` when it wrote nothing. */
  const newCodes = async (write: (hashes: string[]) => Promise<boolean>, refused: string) => {
    const codes = newRecoveryCodes();
    if (!(await write(codes.map(recoveryCodeHash)))) throw conflict(refused);
    return codes;
  };

  return {
    async start({ userId, currentPassword, ip }): Promise<Enrolment> {
      const user = await deps.checkPassword(userId, currentPassword, ip);
      if (user.twoStep !== undefined) throw conflict(ON_ALREADY_MESSAGE);
      const secret = newTotpSecret();
      const expiresAt = new Date(now() + ENROLMENT_LIFETIME_MS);
      const sealed = await box.seal(secret, user._id);
      if (!(await store.wait(user._id, sealed, expiresAt))) throw conflict(ON_ALREADY_MESSAGE);
      return { secret: base32Of(secret), uri: otpauthUri(secret, user.email), expiresAt };
    },

    async confirm({ userId, code, ip }): Promise<string[]> {
      const user = await deps.users.findById(userId);
      if (user === null) throw new DomainError("unauthenticated", "Sign in first.");
      const pending = user.twoStepPending;
      if (
        user.twoStep !== undefined ||
        pending === undefined ||
        pending.expiresAt.getTime() <= now()
      ) {
        throw conflict(NOTHING_WAITING_MESSAGE);
      }
      const attempt = await deps.throttle.begin(user.email, ip);
      const step = stepOfCode(await box.open(pending.secret, user._id), code, now());
      if (step === null) throw new DomainError("forbidden", WRONG_APP_CODE_MESSAGE);
      const codes = await newCodes(
        (hashes) => store.turnOn(user._id, pending.secret, step, hashes),
        NOTHING_WAITING_MESSAGE,
      );
      await attempt.succeeded();
      return codes;
    },

    async turnOff({ userId, currentPassword, ip }): Promise<void> {
      const user = await deps.checkPassword(userId, currentPassword, ip);
      if (user.twoStep === undefined) throw conflict(OFF_MESSAGE);
      const requiring = await deps.ownedRequiring(user._id);
      if (requiring.length > 0) {
        const names = requiring.map((name) => `“${name}”`).join(", ");
        const rule =
          requiring.length === 1
            ? "which requires two-step sign-in of its owners"
            : "which require two-step sign-in of their owners";
        throw conflict(`You own ${names}, ${rule}.`);
      }
      if (!(await store.turnOff(user._id))) throw conflict(OFF_MESSAGE);
    },

    async renewRecoveryCodes({ userId, currentPassword, ip }): Promise<string[]> {
      const user = await deps.checkPassword(userId, currentPassword, ip);
      if (user.twoStep === undefined) throw conflict(OFF_MESSAGE);
      return newCodes((hashes) => store.replaceRecoveryCodes(user._id, hashes), OFF_MESSAGE);
    },

    forceOff: (userId: string) => store.turnOff(userId),

    async checkCode(user, code): Promise<boolean> {
      const on = user.twoStep;
      if (on === undefined) return false;
      if (isRecoveryCode(code)) return store.useRecoveryCode(user._id, recoveryCodeHash(code));
      let secret: Buffer;
      try {
        secret = await box.open(on.secret, user._id);
      } catch {
        // Sealed under another key (the setting changed): no code of it can be checked.
        return false;
      }
      const step = stepOfCode(secret, code, now());
      if (step === null || step <= on.lastStep) return false;
      return store.acceptStep(user._id, on.lastStep, step);
    },

    status(user): TwoStepStatus {
      return {
        enabled: user.twoStep !== undefined,
        recoveryCodesLeft: user.twoStep?.recoveryCodes.length ?? 0,
      };
    },
  };
}
