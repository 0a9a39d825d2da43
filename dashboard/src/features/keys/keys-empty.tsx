import { consumerListUrl, curlExample, KEY_ENV_NAME } from "./key-text.js";

/**
 * A workspace without keys: the next step (mint one), where the consumer API is described, and
 * the call a key makes — with a placeholder (`$PRESSROOM_API_KEY`), never a real key.
 */
export function KeysEmpty({ onMint }: { onMint: () => void }) {
  const example = curlExample(`$${KEY_ENV_NAME}`, consumerListUrl(window.location.origin));
  return (
    <section class="empty keys-empty" aria-labelledby="keys-empty-title">
      <h2 id="keys-empty-title">No keys yet</h2>
      <p>Mint one for each website or app that reads your blogs.</p>
      <p>
        <button type="button" class="button primary" onClick={onMint}>
          Mint your first key
        </button>
      </p>
      <p>
        Then call the consumer API from your server, with the key in <code>{KEY_ENV_NAME}</code>:
      </p>
      <pre class="curl-example">
        <code>{example}</code>
      </pre>
      <p>
        <a href="/docs">Consumer API docs</a> — every endpoint, with examples.
      </p>
    </section>
  );
}
