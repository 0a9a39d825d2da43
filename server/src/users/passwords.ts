import argon2 from "argon2";

/** argon2id with the library's defaults (m=64 MiB, t=3, p=4): the OWASP-recommended family. */
export const hashPassword = (password: string): Promise<string> =>
  argon2.hash(password, { type: argon2.argon2id });

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** Spends the time of a real verification, so unknown emails answer as slowly as known ones. */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummy ??= hashPassword("pressroom-timing-equaliser");
  await verifyPassword(await dummy, password);
  return false;
}
