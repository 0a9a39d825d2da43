import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals endpoints' signing secrets at rest. A sealed secret opens only for the endpoint it was
 * sealed for, and only with the key it was sealed with.
 */
export interface SecretBox {
  /** The secret, sealed for the endpoint `endpointId`. */
  seal(secret: Buffer, endpointId: string): Promise<string>;
  /** The secret; throws when it was sealed with another key or for another endpoint. */
  open(sealed: string, endpointId: string): Promise<Buffer>;
}

/**
 * AES-256-GCM. The endpoint's id is bound in as associated data, so a sealed secret copied onto
 * another endpoint does not open. `key` is the `WEBHOOK_SECRETS_KEY` setting, or a key kept in
 * the database (README, "Webhooks").
 */
export function secretBox(key: () => Promise<Buffer>): SecretBox {
  return {
    async seal(secret: Buffer, endpointId: string): Promise<string> {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", await key(), iv);
      cipher.setAAD(Buffer.from(endpointId, "utf8"));
      const sealed = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
    },

    async open(sealed: string, endpointId: string): Promise<Buffer> {
      const [version, iv = "", body = ""] = sealed.split(".");
      const bytes = Buffer.from(body, "base64url");
      if (version !== VERSION || bytes.length <= TAG_BYTES) {
        throw new Error("webhook secret: not a sealed secret of this version");
      }
      const decipher = createDecipheriv("aes-256-gcm", await key(), Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(endpointId, "utf8"));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]);
    },
  };
}
