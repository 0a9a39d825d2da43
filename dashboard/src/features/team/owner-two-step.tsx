import { useState } from "preact/hooks";
import { api, call, type Workspace } from "../../api.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { hrefOf, onLinkClick } from "../../router.js";

interface OwnerTwoStepProps {
  workspace: Workspace;
  /** The workspace as saved: the rest of the dashboard follows (shell.tsx's owner notice). */
  onSaved: (workspace: Workspace) => void;
}

/**
 * An owner's switch for the workspace's rule "Owners must use two-step sign-in" (admin.yaml,
 * setOwnerTwoStep). Saved as it is switched; the server refuses to turn it on for an owner
 * without two-step sign-in (`409`, said here in its words, the box back as it was), so nobody
 * locks themselves out.
 */
export function OwnerTwoStep({ workspace, onSaved }: OwnerTwoStepProps) {
  const [notice, setNotice] = useState("");
  const { busy, error, submit } = useSubmit();
  const change = (required: boolean) =>
    submit(async () => {
      setNotice("");
      const saved = await call(
        api.PUT("/workspaces/{workspaceId}/owner-two-step", {
          params: { path: { workspaceId: workspace.id } },
          body: { required },
        }),
      );
      onSaved(saved);
      setNotice(
        saved.ownersNeedTwoStep
          ? "Saved: owners must use two-step sign-in."
          : "Saved: owners may sign in with a password only.",
      );
    })();
  return (
    <section class="card owner-two-step" aria-labelledby="owner-two-step-title">
      <h2 id="owner-two-step-title">Owners' sign-in</h2>
      <label class="owner-rule">
        <input
          type="checkbox"
          checked={workspace.ownersNeedTwoStep}
          aria-disabled={busy}
          aria-describedby="owner-two-step-hint"
          onChange={(e) => {
            const required = e.currentTarget.checked;
            // Shown as saved, not as clicked, until the server answers.
            e.currentTarget.checked = workspace.ownersNeedTwoStep;
            if (!busy) change(required);
          }}
        />
        <span>Owners must use two-step sign-in</span>
      </label>
      <p class="hint" id="owner-two-step-hint">
        An owner without it can open nothing in {workspace.name} until they turn it on. Members are
        not affected. You need it yourself first:{" "}
        <a href={hrefOf({ name: "account" })} onClick={onLinkClick}>
          Account
        </a>
        .
      </p>
      {error && <ErrorMessage message={error} focus />}
      <div role="status">{notice && <p class="notice success">{notice}</p>}</div>
    </section>
  );
}
