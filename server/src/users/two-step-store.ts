import type { Collections, TwoStepDoc, UserDoc } from "../platform/db/collections.js";

/**
 * Two-step sign-in as it is kept on the account's document (`twoStep`, `twoStepPending`). Every
 * change is one update with what it was made over in its filter: atomic on MongoDB and on the
 * embedded database (server/embedded-db/README.md, "Single-document writes are atomic"), so of
 * two requests at once that each checked the same state, one applies and the other changes
 * nothing (false).
 */
export interface TwoStepStore {
  /** Keeps a sealed secret waiting for its first code; false when two-step is on already. */
  wait(userId: string, sealed: string, expiresAt: Date): Promise<boolean>;
  /**
   * Turns two-step on with the waiting secret `sealed`, the step of the code that confirmed it,
   * and the recovery codes' hashes; false when that secret waits no more.
   */
  turnOn(userId: string, sealed: string, step: number, codeHashes: string[]): Promise<boolean>;
  /** Records `step` as the latest accepted, over `lastStep` as read; false when it has moved. */
  acceptStep(userId: string, lastStep: number, step: number): Promise<boolean>;
  /** Uses up the recovery code of this hash; false when the account has no such unused one. */
  useRecoveryCode(userId: string, hash: string): Promise<boolean>;
  /** Replaces the recovery codes; false when two-step is off. */
  replaceRecoveryCodes(userId: string, hashes: string[]): Promise<boolean>;
  /** Turns two-step off (a waiting secret goes too); false when it was off. */
  turnOff(userId: string): Promise<boolean>;
}

export function twoStepStore({ users }: Collections): TwoStepStore {
  return {
    async wait(userId, sealed, expiresAt): Promise<boolean> {
      const res = await users.updateOne(
        { _id: userId, twoStep: { $exists: false } },
        { $set: { twoStepPending: { secret: sealed, expiresAt } } },
      );
      return res.modifiedCount === 1;
    },

    async turnOn(userId, sealed, step, codeHashes): Promise<boolean> {
      const twoStep: TwoStepDoc = {
        secret: sealed,
        lastStep: step,
        recoveryCodes: codeHashes,
        enabledAt: new Date(),
      };
      const res = await users.updateOne(
        { _id: userId, "twoStepPending.secret": sealed, twoStep: { $exists: false } },
        { $set: { twoStep }, $unset: { twoStepPending: "" } },
      );
      return res.modifiedCount === 1;
    },

    async acceptStep(userId, lastStep, step): Promise<boolean> {
      const res = await users.updateOne(
        { _id: userId, "twoStep.lastStep": lastStep },
        { $set: { "twoStep.lastStep": step } },
      );
      return res.modifiedCount === 1;
    },

    async useRecoveryCode(userId, hash): Promise<boolean> {
      const res = await users.updateOne(
        { _id: userId, "twoStep.recoveryCodes": hash },
        { $pull: { "twoStep.recoveryCodes": hash } },
      );
      return res.modifiedCount === 1;
    },

    async replaceRecoveryCodes(userId, hashes): Promise<boolean> {
      const res = await users.updateOne(
        { _id: userId, twoStep: { $exists: true } },
        { $set: { "twoStep.recoveryCodes": hashes } },
      );
      return res.modifiedCount === 1;
    },

    async turnOff(userId): Promise<boolean> {
      const res = await users.updateOne(
        { _id: userId, twoStep: { $exists: true } },
        { $unset: { twoStep: "", twoStepPending: "" } },
      );
      return res.modifiedCount === 1;
    },
  };
}

/** Whether the account signs in with a second step. */
export const hasTwoStep = (user: Pick<UserDoc, "twoStep">): boolean => user.twoStep !== undefined;
