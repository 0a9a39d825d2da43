import type { WithId } from "mongodb";
import type { Collections, UserDoc } from "../platform/db/collections.js";
import { isDuplicateKey } from "../platform/db/duplicate-key.js";
import { conflict } from "../platform/domain-error.js";
import { newId } from "../platform/ids.js";
import { hashPassword } from "./passwords.js";

/** An email as accounts are stored and looked up (and sign-in attempts counted) by. */
export const normalEmail = (email: string): string => email.trim().toLowerCase();

export const EMAIL_TAKEN_MESSAGE = "Another account has this email.";

/** What is shown of an account to others: never its password hash. */
export type UserName = Pick<UserDoc, "_id" | "name" | "email">;

export interface NewUser {
  email: string;
  name: string;
  password: string;
}

/** Dashboard accounts. Their workspaces are the workspaces store's (memberships). */
export interface UsersStore {
  /** A new account; "conflict" when one has the email already. */
  create(input: NewUser): Promise<UserDoc>;
  /**
   * Replaces the password whose hash the caller checked (`checkedHash`), and grows the
   * account's `passwordGeneration`, so no sign-in that checked the old one stores its session
   * afterwards (sessions-store.ts). False, nothing changed, when the hash is no longer
   * `checkedHash` (another change came first). The new password is checked by the caller (the
   * spec's length rules).
   */
  setPassword(userId: string, checkedHash: string, password: string): Promise<boolean>;
  /**
   * Sets the account's email to `newEmail` (normalised here) over the email and password hash
   * the caller checked (`checked`), and grows `passwordGeneration`: the account's reset links,
   * made for the old address, stop working, as do sign-ins in flight (sessions-store.ts).
   * False, nothing changed, when either is no longer the one checked; "conflict" when another
   * account has the email (the unique index decides, so two accounts asking at once cannot both
   * get it).
   */
  changeEmail(
    userId: string,
    checked: Pick<UserDoc, "email" | "passwordHash">,
    newEmail: string,
  ): Promise<boolean>;
  /** Sets the account's name (trimmed; the spec's rules are checked by the caller). */
  rename(userId: string, name: string): Promise<void>;
  /** Grows `passwordGeneration` ("sign out everywhere"): sign-ins in flight store no session. */
  endSessions(userId: string): Promise<void>;
  /** The account with this email, however it is spelled (`normalEmail`), or null. */
  findByEmail(email: string): Promise<WithId<UserDoc> | null>;
  findById(id: string): Promise<WithId<UserDoc> | null>;
  /** id → name and email, for showing who did what. One query. */
  namesOf(ids: Iterable<string>): Promise<Map<string, UserName>>;
}

export function usersStore({ users }: Collections): UsersStore {
  // Session-ending writes are one update each, with the checked hash in its filter: atomic on
  // MongoDB and on the embedded database (server/embedded-db/README.md, "Single-document writes
  // are atomic"), so concurrent ones need no turns.
  return {
    async create(input: NewUser): Promise<UserDoc> {
      const doc: UserDoc = {
        _id: newId("usr"),
        email: normalEmail(input.email),
        name: input.name.trim(),
        passwordHash: await hashPassword(input.password),
        createdAt: new Date(),
      };
      try {
        await users.insertOne(doc);
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict("A user with this email exists already.");
        throw err;
      }
      return doc;
    },

    async changeEmail(userId, checked, newEmail): Promise<boolean> {
      try {
        const res = await users.updateOne(
          { _id: userId, email: checked.email, passwordHash: checked.passwordHash },
          { $set: { email: normalEmail(newEmail) }, $inc: { passwordGeneration: 1 } },
        );
        return res.modifiedCount === 1;
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict(EMAIL_TAKEN_MESSAGE);
        throw err;
      }
    },

    async setPassword(userId: string, checkedHash: string, password: string): Promise<boolean> {
      const passwordHash = await hashPassword(password);
      const res = await users.updateOne(
        { _id: userId, passwordHash: checkedHash },
        { $set: { passwordHash }, $inc: { passwordGeneration: 1 } },
      );
      return res.modifiedCount === 1;
    },

    async rename(userId: string, name: string): Promise<void> {
      await users.updateOne({ _id: userId }, { $set: { name: name.trim() } });
    },

    async endSessions(userId: string): Promise<void> {
      await users.updateOne({ _id: userId }, { $inc: { passwordGeneration: 1 } });
    },

    findByEmail: (email: string) => users.findOne({ email: normalEmail(email) }),
    findById: (id: string) => users.findOne({ _id: id }),

    async namesOf(ids: Iterable<string>): Promise<Map<string, UserName>> {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      const docs = await users
        .find<UserName>({ _id: { $in: unique } }, { projection: { _id: 1, name: 1, email: 1 } })
        .toArray();
      return new Map(docs.map((u) => [u._id, u]));
    },
  };
}
