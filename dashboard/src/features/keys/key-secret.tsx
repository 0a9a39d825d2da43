import type { MintedKey } from "../../api.js";
import { CopyOnceField } from "../../components/copy-once-field.js";
import { ShownOnceDialog } from "../../components/shown-once-dialog.js";
import { consumerListUrl, curlExample, envLine } from "./key-text.js";

/**
 * The raw key of a mint or a roll, shown once (GitHub and Unkey do the same): it lives only in
 * this dialog's state — never in an address, a log or storage. The dialog is hard to lose
 * (`ShownOnceDialog`: Escape and backdrop clicks do nothing, "Done" asks first unless something
 * was copied). Besides the key it offers the two lines people paste next: an environment
 * variable and a curl call of the consumer API, each with its own Copy.
 */
export function ShowSecret({ minted, onClose }: { minted: MintedKey; onClose: () => void }) {
  const url = consumerListUrl(window.location.origin, minted.key.kind);
  return (
    <ShownOnceDialog
      title="Copy your new key now"
      secret={minted.secret}
      what="key"
      onClose={onClose}
      description={
        <p class="notice warning">
          <strong>This key will not be shown again.</strong> Pressroom keeps only a hash of it. Copy
          it into your server's secret settings now; if you lose it, revoke it and mint a new one.
        </p>
      }
    >
      {(copied) => (
        <>
          <CopyOnceField
            id="minted-secret"
            label={`API key “${minted.key.name}”`}
            value={minted.secret}
            what="key"
            onCopied={copied}
          />
          <CopyOnceField
            id="minted-env"
            label="As an environment variable"
            value={envLine(minted.secret)}
            what="line"
            focus={false}
            onCopied={copied}
          />
          <CopyOnceField
            id="minted-curl"
            label="Try it with curl"
            value={curlExample(minted.secret, url)}
            what="command"
            focus={false}
            onCopied={copied}
          />
          <p class="hint">
            Send it from your server in the <code>x-api-key</code> header (or{" "}
            <code>Authorization: Bearer …</code>).
            {minted.key.kind === "preview" && (
              <>
                {" "}
                A preview key reads drafts and pending changes, under <code>/api/preview</code>{" "}
                only.
              </>
            )}
          </p>
        </>
      )}
    </ShownOnceDialog>
  );
}
