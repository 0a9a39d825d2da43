import { useRef, useState } from "preact/hooks";
import { ApiError, api, call, send } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useVisibleInterval } from "../../hooks.js";
import { useLoad } from "../../use-load.js";
import { NewTokenDialog } from "./new-token.js";
import { TokenList, TokensEmpty } from "./token-list.js";
import { type AccessToken, TOKENS_REFRESH_MS } from "./token-text.js";
import "./tokens.css";

type TokenDialog = { kind: "new" } | { kind: "revoke"; token: AccessToken };

/**
 * The account's personal access tokens (admin.yaml, `listAccessTokens`, `createAccessToken`,
 * `revokeAccessToken`): for scripts and CI jobs, which send one as `Authorization: Bearer …` to
 * the admin API. The list refreshes every 10 s while the page is visible (and after each change),
 * so "last used" moves without a reload.
 */
export function AccessTokens() {
  const [dialog, setDialog] = useState<TokenDialog | null>(null);
  const [notice, setNotice] = useState("");
  const newButton = useRef<HTMLButtonElement>(null);
  const loaded = useLoad(
    async (signal) => (await call(api.GET("/me/tokens", { signal }))).data,
    [],
  );
  const load = loaded.reload;
  useVisibleInterval(load, TOKENS_REFRESH_MS);
  const now = Date.now();
  const tokens = loaded.data;
  const error = loaded.error?.message ?? null;

  /**
   * A revoke takes away the Revoke button the confirmation gives the focus back to. Once the
   * change has rendered, a focus fallen to <body> goes to "New token", the section's one button
   * that always stays.
   */
  const refocusIfLost = () =>
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if ((active && active !== document.body) || document.querySelector("dialog[open]")) return;
      newButton.current?.focus();
    });
  const revoke = async (token: AccessToken) => {
    let done = `Token “${token.name}” revoked. Requests that use it now get 401.`;
    try {
      await send(api.DELETE("/me/tokens/{tokenId}", { params: { path: { tokenId: token.id } } }));
    } catch (err) {
      // Revoked already (in another tab): what was asked for is so.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      done = `Token “${token.name}” was revoked already.`;
    }
    loaded.mutate((list) => list.filter((t) => t.id !== token.id));
    setDialog(null);
    setNotice(done);
    refocusIfLost();
    await load();
  };

  return (
    <section class="card access-tokens" aria-labelledby="tokens-title">
      <div class="tokens-header">
        <h2 id="tokens-title">Access tokens</h2>
        <button
          type="button"
          class="button primary"
          ref={newButton}
          onClick={() => setDialog({ kind: "new" })}
        >
          New token
        </button>
      </div>
      <p>
        For scripts and CI jobs: a token acts as you on the admin API, sent in the{" "}
        <code>Authorization: Bearer …</code> header. It can do only what its scopes allow, and never
        more than your role in each workspace allows at the time.
      </p>
      <div role="status">{notice && <p class="notice success">{notice}</p>}</div>
      {error && (
        <ErrorMessage message={tokens ? `Could not refresh: ${error}` : error} onRetry={load} />
      )}
      {tokens === null && !error && <Loading label="Loading access tokens…" />}
      {tokens?.length === 0 && <TokensEmpty />}
      {tokens && tokens.length > 0 && (
        <>
          <TokenList
            tokens={tokens}
            now={now}
            onRevoke={(token) => setDialog({ kind: "revoke", token })}
          />
          <p class="hint">
            “Last used” can trail a token's newest request: the server writes it in batches (
            <code>LAST_USED_FLUSH_MS</code>), and this list refreshes every{" "}
            {TOKENS_REFRESH_MS / 1000} seconds.
          </p>
        </>
      )}
      {dialog?.kind === "new" && (
        <NewTokenDialog
          onCreated={(token) => {
            setNotice(`Token “${token.name}” created.`);
            void load();
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === "revoke" && (
        <ConfirmDialog
          title={`Revoke “${dialog.token.name}”?`}
          confirmLabel="Revoke token"
          onConfirm={() => revoke(dialog.token)}
          onClose={() => setDialog(null)}
        >
          <p>
            Scripts and jobs that use the token <code>{dialog.token.prefix}…</code> will get 401
            from now on. A revoked token cannot be turned back on; make a new one if they need
            access again.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
