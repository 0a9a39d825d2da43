/**
 * The words and shapes of two-step sign-in (admin.yaml, `SecondStep`, `AppCode`,
 * `RecoveryCodes`): what a typed code is sent as, the secret grouped for reading, the recovery
 * codes as a file. Pure functions, so the browser suite can hold them to the spec's patterns.
 */

/** What an app's code is: 6 digits (admin.yaml `AppCode`). */
const APP_CODE = /^[0-9]{6}$/;
/** A recovery code, `xxxxx-xxxxx` in lower-case base32 (admin.yaml `RecoveryCodes`). */
const RECOVERY_CODE = /^[a-z2-7]{5}-[a-z2-7]{5}$/;

/**
 * The code as the server takes it, from what was typed or pasted: white space (an app that
 * shows "492 039", a pasted line) goes; a recovery code is lower-cased and gets its hyphen back
 * if it was left out. Null when it is neither shape.
 */
export function codeToSend(typed: string): string | null {
  const compact = typed.replace(/\s+/g, "");
  if (APP_CODE.test(compact)) return compact;
  const lower = compact.toLowerCase();
  const hyphened = /^[a-z2-7]{10}$/.test(lower) ? `${lower.slice(0, 5)}-${lower.slice(5)}` : lower;
  return RECOVERY_CODE.test(hyphened) ? hyphened : null;
}

/** An app's code only (confirming a new secret takes no recovery code), or null. */
export function appCodeToSend(typed: string): string | null {
  const compact = typed.replace(/\s+/g, "");
  return APP_CODE.test(compact) ? compact : null;
}

/** "ABCD EFGH …": the base32 secret in groups of 4, for reading and typing into an app. */
export const groupedSecret = (secret: string): string => (secret.match(/.{1,4}/g) ?? []).join(" ");

/** The recovery codes as a text file: what they are, then one a line. */
export function recoveryCodesFile(codes: readonly string[], email: string): string {
  return [
    `Pressroom recovery codes for ${email}`,
    "Each code signs in once instead of your authenticator app's code.",
    "Keep them somewhere safe, apart from your password.",
    "",
    ...codes,
    "",
  ].join("\n");
}

/** "1 recovery code left", "10 recovery codes left". */
export const codesLeftText = (left: number): string =>
  `${left} recovery code${left === 1 ? "" : "s"} left`;
