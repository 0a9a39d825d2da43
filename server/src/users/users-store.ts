import type { Collections, UserDoc } from "../db/collections.js";
import { isDuplicateKey } from "../db/duplicate-key.js";
import { conflict } from "../domain-error.js";
import { newId } from "../ids.js";
import { hashPassword } from "./passwords.js";

/** An email as accounts are stored and looked up (and sign-in attempts counted) by. */
export const normalEmail = (email: string): string => email.trim().toLowerCase();

/** What is shown of an account to others: never its password hash. */
export type UserName = Pick<UserDoc, "_id" | "name" | "email">;

export interface NewUser {
  email: string;
  name: string;
  password: string;
}

/** Dashboard accounts. Their workspaces are the workspaces store's (memberships). */
export function usersStore({ users }: Collections) {
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

    /** Checked by the caller (the spec's length rules, the current password). */
    async setPassword(userId: string, password: string): Promise<void> {
      await users.updateOne(
        { _id: userId },
        { $set: { passwordHash: await hashPassword(password) } },
      );
    },

    findByEmail: (email: string) => users.findOne({ email: normalEmail(email) }),
    findById: (id: string) => users.findOne({ _id: id }),

    /** id → name and email, for showing who did what. One query. */
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

export type UsersStore = ReturnType<typeof usersStore>;
