import { api, call, type WorkspaceRateLimit } from "../../api.js";
import { ChoiceGroup } from "../../components/choice-group.js";
import { useLimitForm } from "../../components/limit-form.js";
import { RateLimitFields } from "../../components/rate-limit-fields.js";
import { ErrorMessage } from "../../components/status.js";
import { limitText } from "./key-text.js";

/** "1,200 per minute (server default)", "no limit (server default)", "600 per hour". */
export function effectiveLimitText(limits: WorkspaceRateLimit): string {
  if (limits.rateLimit) return limitText(limits.rateLimit);
  return `${limits.serverDefault ? limitText(limits.serverDefault) : "no limit"} (server default)`;
}

interface WorkspaceLimitProps {
  workspaceId: string;
  limits: WorkspaceRateLimit;
  /** Only the owner may change it; members see it read-only. */
  canEdit: boolean;
  onSaved: (limits: WorkspaceRateLimit) => void;
}

const KINDS = [
  { value: "server", label: "Server default" },
  { value: "own", label: "Custom limit" },
] as const;

/** The default rate limit of the workspace's keys (settings; README, "Rate limits", enforcement). */
export function WorkspaceLimit({ workspaceId, limits, canEdit, onSaved }: WorkspaceLimitProps) {
  const { kind, setKind, draft, setDraft, errors, busy, error, save } = useLimitForm(
    limits.rateLimit,
    "server",
    async (rateLimit) => {
      const next = await call(
        api.PUT("/workspaces/{workspaceId}/rate-limit", {
          params: { path: { workspaceId } },
          body: { rateLimit },
        }),
      );
      onSaved(next);
    },
  );
  const server = limits.serverDefault ? limitText(limits.serverDefault) : "no limit";
  return (
    <section class="card limits" aria-labelledby="limits-title">
      <h2 id="limits-title">Default rate limit</h2>
      <p>
        Keys without a limit of their own get <strong>{effectiveLimitText(limits)}</strong>.
        {limits.rateLimit && ` The server's default, which this replaces, is ${server}.`}
      </p>
      {canEdit ? (
        <form class="stack" noValidate onSubmit={save}>
          <ChoiceGroup
            label="Default for keys without their own limit"
            name="workspace-limit"
            options={KINDS}
            value={kind}
            onChange={setKind}
          />
          {kind === "own" && <RateLimitFields draft={draft} onChange={setDraft} errors={errors} />}
          {error && <ErrorMessage message={error} />}
          <div>
            <button type="submit" class="button primary" disabled={busy}>
              {busy ? "Saving…" : "Save default"}
            </button>
          </div>
        </form>
      ) : (
        <p class="hint">Only the workspace's owner can change limits.</p>
      )}
    </section>
  );
}
