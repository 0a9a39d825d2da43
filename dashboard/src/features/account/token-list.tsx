import { TimeAgo } from "../../components/status.js";
import { zonedTime } from "../../time.js";
import { type AccessToken, isExpired, TOKEN_ENV_NAME, tokenCurl } from "./token-text.js";

interface TokenListProps {
  tokens: readonly AccessToken[];
  now: number;
  onRevoke: (token: AccessToken) => void;
}

/**
 * The user's tokens, newest first, as the server lists them: each with its name, prefix, scopes,
 * when it was made, the exact moment it expires (an expired one says so; it stays listed until
 * revoked), when it was last used, and its Revoke button.
 */
export function TokenList({ tokens, now, onRevoke }: TokenListProps) {
  return (
    <ul class="token-list" aria-label="Your access tokens">
      {tokens.map((token) => (
        <TokenItem key={token.id} token={token} now={now} onRevoke={() => onRevoke(token)} />
      ))}
    </ul>
  );
}

function TokenItem({
  token,
  now,
  onRevoke,
}: {
  token: AccessToken;
  now: number;
  onRevoke: () => void;
}) {
  const expired = isExpired(token.expiresAt, now);
  return (
    <li class="token-item">
      <div class="token-item-head">
        <h3 class="token-name">{token.name}</h3>
        {expired && <span class="badge expired">Expired</span>}
        <button type="button" class="button small danger-outline" onClick={onRevoke}>
          Revoke<span class="visually-hidden"> {token.name}</span>
        </button>
      </div>
      <dl class="token-facts">
        <div>
          <dt>Token</dt>
          <dd>
            <code class="prefix">{token.prefix}…</code>
          </dd>
        </div>
        <div>
          <dt>Scopes</dt>
          <dd class="token-scope-tags">
            {token.scopes.map((scope) => (
              <code key={scope} class="tag">
                {scope}
              </code>
            ))}
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <TimeAgo iso={token.createdAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>{expired ? "Expired" : "Expires"}</dt>
          <dd>
            <time dateTime={token.expiresAt}>{zonedTime(token.expiresAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd class="token-last-used">
            {token.lastUsedAt ? (
              <TimeAgo iso={token.lastUsedAt} now={now} />
            ) : (
              <span class="muted">Never</span>
            )}
          </dd>
        </div>
      </dl>
    </li>
  );
}

/**
 * No tokens yet: what they are for, and the call a script makes with one — with a placeholder
 * (`$PRESSROOM_TOKEN`), never a real token. "New token" is the section's own button, above.
 */
export function TokensEmpty() {
  return (
    <div class="empty tokens-empty">
      <p>
        <strong>No access tokens yet.</strong>
      </p>
      <p>
        Make one for each script or CI job, with only the scopes it needs. The job then calls the
        admin API with it, for example:
      </p>
      <pre class="token-curl">
        <code>{tokenCurl(`$${TOKEN_ENV_NAME}`, window.location.origin)}</code>
      </pre>
    </div>
  );
}
