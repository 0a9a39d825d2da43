import { createHmac, timingSafeEqual } from "node:crypto";
import type { Collections } from "./db/collections.js";
import { databaseSecret } from "./db/database-secret.js";

const MAC_BYTES = 16;

/**
 * Tokens a server hands out and takes back unchanged (a changes-feed position, a preview link's
 * grant): `base64url(JSON body) "." base64url(HMAC-SHA256)`, the MAC cut to 128 bits, keyed by a
 * random secret made once per database (`markerId` in `markers`: every instance signs and
 * checks alike, nothing to configure) and bound to `context`, so that one kind of token is never
 * taken for another even under one key.
 */
export interface TokenSigner {
  sign(body: unknown): Promise<string>;
  /**
   * The body of a token this signer made; null for anything else (edited, forged, cut, of
   * another kind), whichever it was. A body still needs checking field by field.
   */
  open(token: string): Promise<unknown>;
}

export function tokenSigner(
  { markers }: Pick<Collections, "markers">,
  markerId: string,
  context: string,
): TokenSigner {
  const loadKey = databaseSecret({ markers }, markerId);
  const mac = (secret: Buffer, payload: string): Buffer =>
    createHmac("sha256", secret)
      .update(context + payload)
      .digest()
      .subarray(0, MAC_BYTES);

  return {
    async sign(body) {
      const payload = Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
      return `${payload}.${mac(await loadKey(), payload).toString("base64url")}`;
    },

    async open(token) {
      const [payload = "", signature = "", ...rest] = token.split(".");
      const given = Buffer.from(signature, "base64url");
      const expected = mac(await loadKey(), payload);
      if (
        rest.length > 0 ||
        given.length !== MAC_BYTES ||
        given.toString("base64url") !== signature ||
        !timingSafeEqual(given, expected)
      ) {
        return null;
      }
      try {
        return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown;
      } catch {
        return null;
      }
    },
  };
}
