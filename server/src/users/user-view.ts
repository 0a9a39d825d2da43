import type { Actor, User } from "../platform/http/admin-types.js";
import type { UserName } from "./users-store.js";

/** Stored account → the admin spec's `User`: id, name and email, never the password hash. */
export const toUser = (u: UserName): User => ({ id: u._id, name: u.name, email: u.email });

/** Who did something (`Actor`): the account's id and name, or null when there is none. */
export function toActor(id: string | null, people: ReadonlyMap<string, UserName>): Actor {
  const user = id === null ? undefined : people.get(id);
  return user === undefined ? null : { id: user._id, name: user.name };
}
