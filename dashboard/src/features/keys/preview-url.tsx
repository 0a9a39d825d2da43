import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { api, call, type Workspace } from "../../api.js";
import { Field } from "../../components/field.js";
import { focusFirstInvalid } from "../../components/form-check.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";

const URL_MAX = adminLimits.setPreviewUrl.previewUrl.maxLength;
const EXAMPLE = "https://example.com/api/preview?slug={slug}&token={token}";

/** The form's own check, on submit; the server checks the rest (admin.yaml `PreviewUrl`). */
export function checkPreviewUrl(value: string): string | null {
  const url = value.trim();
  if (url === "") return null;
  if (!/^https?:\/\//i.test(url)) return "Start with http:// or https://.";
  if (!url.includes("{token}")) return "Put {token} where your site reads the preview token.";
  return null;
}

interface PreviewUrlProps {
  workspace: Workspace;
  /** The workspace as saved: the editor's "Preview on site" follows it at once. */
  onSaved: (workspace: Workspace) => void;
}

/**
 * Where the editor's "Preview on site" goes (openapi.yaml, "Preview"): the owner sets the URL
 * of the team's preview route; members see it.
 */
export function PreviewUrlCard({ workspace, onSaved }: PreviewUrlProps) {
  const owner = workspace.role === "owner";
  const [value, setValue] = useState(workspace.previewUrl ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, submit } = useSubmit();
  const save = submit(async () => {
    const previewUrl = value.trim() === "" ? null : value.trim();
    const saved = await call(
      api.PUT("/workspaces/{workspaceId}/preview-url", {
        params: { path: { workspaceId: workspace.id } },
        body: { previewUrl },
      }),
    );
    setValue(saved.previewUrl ?? "");
    onSaved(saved);
  });
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = checkPreviewUrl(value);
    setProblem(found);
    if (found === null) save(event);
    else focusFirstInvalid(event.currentTarget as HTMLFormElement);
  };
  return (
    <section class="card limits" aria-labelledby="preview-url-title">
      <h2 id="preview-url-title">Preview on your site</h2>
      <p>
        {workspace.previewUrl
          ? "Editors' “Preview on site” opens this address with a one-hour token for the blog they are editing. Your site's server exchanges the token with its live key (POST /api/consumer/preview-tokens/exchange) and renders the blog as edited."
          : "Set the address of your site's preview route, and editors get “Preview on site”: their draft or pending changes, rendered by your site before anyone else sees them."}
      </p>
      {owner ? (
        <form class="stack" noValidate onSubmit={onSubmit}>
          <Field
            label="Preview URL"
            hint={
              <>
                With <code>{"{token}"}</code>, and optionally <code>{"{slug}"}</code> and{" "}
                <code>{"{blogId}"}</code>. For example <code>{EXAMPLE}</code>. Leave empty to turn
                preview links off.
              </>
            }
            error={problem}
          >
            {(p) => (
              <input
                {...p}
                type="url"
                inputMode="url"
                autocomplete="off"
                spellcheck={false}
                maxLength={URL_MAX}
                value={value}
                onInput={(e) => setValue(e.currentTarget.value)}
              />
            )}
          </Field>
          {error && <ErrorMessage message={error} />}
          <div>
            <button type="submit" class="button primary" disabled={busy}>
              {busy ? "Saving…" : "Save preview URL"}
            </button>
          </div>
        </form>
      ) : (
        <p class="hint">
          {workspace.previewUrl ? (
            <>
              Preview links go to <code>{workspace.previewUrl}</code>.{" "}
            </>
          ) : null}
          Only the workspace's owner can change where preview links go.
        </p>
      )}
    </section>
  );
}
