import { createHash, randomBytes, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";

/**
 * The codes of two-step sign-in: TOTP (RFC 6238) as every authenticator app reads it — SHA-1,
 * 6 digits, 30-second steps — through `otpauth`, and recovery codes.
 */

const ISSUER = "Pressroom";
const PERIOD_S = 30;
const DIGITS = 6;
/** Steps either side of now whose code is accepted: clocks a little apart, a code typed late. */
const SKEW_STEPS = 1;
/** 160 bits, as RFC 4226 recommends: 32 base32 characters. */
const SECRET_BYTES = 20;

export const RECOVERY_CODES = 10;
/** RFC 4648's base32 alphabet, lower case: no 0/1/8 to misread as o/l/b. */
const RECOVERY_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const RECOVERY_CODE = /^[a-z2-7]{5}-[a-z2-7]{5}$/;
const APP_CODE = /^[0-9]{6}$/;

/** A new TOTP secret's bytes. */
export const newTotpSecret = (): Buffer => randomBytes(SECRET_BYTES);

/** The secret in base32, as apps take it typed. */
export const base32Of = (secret: Buffer): string =>
  new Secret({ buffer: new Uint8Array(secret).buffer }).base32;

/** The `otpauth://totp/…` URI an app reads from a QR code. */
export function otpauthUri(secret: Buffer, email: string): string {
  return new TOTP({
    issuer: ISSUER,
    label: email,
    secret: new Secret({ buffer: new Uint8Array(secret).buffer }),
    algorithm: "SHA1",
    digits: DIGITS,
    period: PERIOD_S,
  }).toString();
}

/**
 * The 30-second step whose code `code` is, within one step of `now`; null when it is no code
 * of the secret then. The caller refuses steps accepted before (replay).
 */
export function stepOfCode(secret: Buffer, code: string, now: number): number | null {
  if (!APP_CODE.test(code)) return null;
  const delta = TOTP.validate({
    token: code,
    secret: new Secret({ buffer: new Uint8Array(secret).buffer }),
    algorithm: "SHA1",
    digits: DIGITS,
    period: PERIOD_S,
    timestamp: now,
    window: SKEW_STEPS,
  });
  return delta === null ? null : TOTP.counter({ period: PERIOD_S, timestamp: now }) + delta;
}

/** Whether `code` has the shape of a recovery code (else, of an app's code). */
export const isRecoveryCode = (code: string): boolean => RECOVERY_CODE.test(code);

/** Ten new recovery codes, `xxxxx-xxxxx`: 50 random bits each. */
export function newRecoveryCodes(): string[] {
  const one = () => {
    let text = "";
    for (let i = 0; i < 10; i++) text += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  };
  return Array.from({ length: RECOVERY_CODES }, one);
}

/**
 * How a recovery code is stored: SHA-256 hex. Its 50 random bits, tried only through the
 * sign-in throttle, need no slow hash; a copy of the database does not tell the codes.
 */
export const recoveryCodeHash = (code: string): string =>
  createHash("sha256").update(code.toLowerCase(), "utf8").digest("hex");
