import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals secrets the server must read back (webhook endpoints' signing secrets, accounts' TOTP
 * secrets) at rest. A sealed secret opens only for the owner it was sealed for, and only with the
 * key it was sealed with.
 */
export interface SecretBox {
  /** The secret, sealed for `ownerId` (an endpoint's or an account's id). */
  seal(secret: Buffer, ownerId: string): Promise<string>;
  /** The secret; throws when it was sealed with another key or for another owner. */
  open(sealed: string, ownerId: string): Promise<Buffer>;
}

/**
 * AES-256-GCM. The owner's id is bound in as associated data, so a sealed secret copied onto
 * another endpoint or account does not open. `key` is a setting (`WEBHOOK_SECRETS_KEY`), or a key
 * kept in the database (README, "Webhooks" and "Two-step sign-in").
 */
export function secretBox(key: () => Promise<Buffer>): SecretBox {
  return {
    async seal(secret: Buffer, ownerId: string): Promise<string> {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", await key(), iv);
      cipher.setAAD(Buffer.from(ownerId, "utf8"));
      const sealed = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
    },

    async open(sealed: string, ownerId: string): Promise<Buffer> {
      const [version, iv = "", body = ""] = sealed.split(".");
      const bytes = Buffer.from(body, "base64url");
      if (version !== VERSION || bytes.length <= TAG_BYTES) {
        throw new Error("sealed secret: not one of this version");
      }
      const decipher = createDecipheriv("aes-256-gcm", await key(), Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(ownerId, "utf8"));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]);
    },
  };
}

/**
 * A key of its own for one purpose, from a key set for several (HKDF-SHA-256, RFC 5869): what
 * one purpose's key seals, another's does not open.
 */
export const derivedKey = (key: Buffer, purpose: string): Buffer =>
  Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), purpose, 32));
