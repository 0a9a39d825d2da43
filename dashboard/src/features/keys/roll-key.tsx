import { useState } from "preact/hooks";
import { type ApiKey, api, call, type MintedKey } from "../../api.js";
import { ChoiceGroup } from "../../components/choice-group.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage, TimeAgo } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { KeyExpiry } from "./key-expiry.js";
import { ShowSecret } from "./key-secret.js";
import { DEFAULT_GRACE_SECONDS, GRACE_PRESETS } from "./key-text.js";

interface RollKeyProps {
  workspaceId: string;
  apiKey: ApiKey;
  onRolled: (successor: ApiKey) => void;
  onClose: () => void;
}

const GRACE_OPTIONS = GRACE_PRESETS.map((p) => ({ value: p.seconds, label: p.label }));

/** "Roll key": pick how long the old key keeps working, then show the successor's key once. */
export function RollKeyDialog({ workspaceId, apiKey, onRolled, onClose }: RollKeyProps) {
  const [grace, setGrace] = useState<number>(DEFAULT_GRACE_SECONDS);
  const [minted, setMinted] = useState<MintedKey | null>(null);
  const { busy, error, submit } = useSubmit();
  const roll = submit(async () => {
    const result = await call(
      api.POST("/workspaces/{workspaceId}/keys/{keyId}/roll", {
        params: { path: { workspaceId, keyId: apiKey.id } },
        body: { gracePeriodSeconds: grace },
      }),
    );
    setMinted(result);
    onRolled(result.key);
  });

  if (minted) return <ShowSecret minted={minted} onClose={onClose} />;
  return (
    <Modal
      title={`Roll “${apiKey.name}”`}
      onClose={onClose}
      description="A new key with the same name and limit replaces this one. Both work during the grace period, so you can deploy the new key before the old one stops."
    >
      <form class="stack" onSubmit={roll}>
        <ChoiceGroup
          label="The old key keeps working for"
          name="grace"
          options={GRACE_OPTIONS}
          value={grace}
          onChange={setGrace}
        />
        {error && <ErrorMessage message={error} />}
        <div class="modal-actions">
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? "Rolling…" : "Roll key"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

interface RollOverviewProps {
  previous: ApiKey;
  successor: ApiKey;
  now: number;
  onHide: () => void;
}

/**
 * Where a roll stands, from the keys as last loaded (each change here, a revoke too, loads them
 * again, and so does the 10 s refresh): the traffic moving over while both work, or what a revoke
 * or the old key's expiry left.
 */
function rollState(previous: ApiKey, successor: ApiKey): string {
  const oldWorks = previous.status === "Active";
  const newWorks = successor.status === "Active";
  if (oldWorks && newWorks) {
    return "Once the old key's last use stops moving, every consumer uses the new key. The old key stops working when it expires.";
  }
  if (newWorks) {
    return `The old key no longer works (${previous.status.toLowerCase()}): every consumer must use the new key now.`;
  }
  if (oldWorks) {
    return `The new key no longer works (${successor.status.toLowerCase()}): consumers still use the old key, until it expires. Mint a new key to move them to.`;
  }
  return "Neither key works any more: mint a new key.";
}

/** The old and the new key side by side, so the owner sees when traffic has moved over. */
export function RollOverview({ previous, successor, now, onHide }: RollOverviewProps) {
  return (
    <section class="card roll-overview" aria-labelledby="roll-overview-title">
      <div class="roll-overview-header">
        <h2 id="roll-overview-title">Rolling “{previous.name}”</h2>
        <button type="button" class="button small" onClick={onHide}>
          Hide
        </button>
      </div>
      <div class="roll-pair">
        <RollSide title="Old key" apiKey={previous} now={now} />
        <RollSide title="New key" apiKey={successor} now={now} />
      </div>
      <p class="hint roll-state">{rollState(previous, successor)}</p>
    </section>
  );
}

function RollSide({ title, apiKey: k, now }: { title: string; apiKey: ApiKey; now: number }) {
  return (
    <dl class="roll-side" aria-label={title}>
      <div>
        <dt>{title}</dt>
        <dd>
          <code class="prefix">{k.prefix}…</code>{" "}
          <span class={`badge ${k.status.toLowerCase()}`}>{k.status}</span>
        </dd>
      </div>
      <div>
        <dt>Expires</dt>
        <dd class="expires">
          <KeyExpiry apiKey={k} now={now} />
        </dd>
      </div>
      <div>
        <dt>Last used</dt>
        <dd class="last-used">
          {k.lastUsedAt ? <TimeAgo iso={k.lastUsedAt} now={now} /> : "never"}
        </dd>
      </div>
    </dl>
  );
}
