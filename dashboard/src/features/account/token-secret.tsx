import { CopyOnceField } from "../../components/copy-once-field.js";
import { ShownOnceDialog } from "../../components/shown-once-dialog.js";
import { zonedTime } from "../../time.js";
import { type CreatedAccessToken, TOKEN_ENV_NAME, tokenCurl } from "./token-text.js";

interface TokenSecretProps {
  created: CreatedAccessToken;
  onClose: () => void;
}

/**
 * A new token's secret, shown once, as a new API key's is (features/keys/key-secret.tsx): it
 * lives only in this dialog's state, never in an address, a log or storage. The dialog is hard
 * to lose (`ShownOnceDialog`: Escape and stray clicks do nothing, "Done" asks first unless a
 * Copy, or a Ctrl+C of the token, succeeded). Besides the token, a curl call of the admin API
 * that uses it, with its own Copy.
 */
export function TokenSecret({ created, onClose }: TokenSecretProps) {
  const { token, secret } = created;
  return (
    <ShownOnceDialog
      title="Copy your new token now"
      secret={secret}
      what="token"
      onClose={onClose}
      description={
        <p class="notice warning">
          <strong>This token will not be shown again.</strong> Pressroom keeps only a hash of it.
          Put it in your CI's or script's secret settings now; if you lose it, revoke it and make a
          new one.
        </p>
      }
    >
      {(copied) => (
        <>
          <CopyOnceField
            id="token-secret"
            label={`Access token “${token.name}”`}
            value={secret}
            what="token"
            onCopied={copied}
          />
          <CopyOnceField
            id="token-curl"
            label="Try it with curl"
            value={tokenCurl(secret, window.location.origin)}
            what="command"
            focus={false}
            onCopied={copied}
          />
          <p class="hint">
            Send it in the <code>Authorization: Bearer …</code> header of admin API requests (for
            example from <code>{TOKEN_ENV_NAME}</code>), never in a URL. It acts as you, with its
            scopes only, until {zonedTime(token.expiresAt)}.
          </p>
        </>
      )}
    </ShownOnceDialog>
  );
}
