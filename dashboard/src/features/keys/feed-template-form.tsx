import { useRef, useState } from "preact/hooks";
import { ApiError, api, call, messageOf, type Workspace } from "../../api.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { checkLinkTemplate, TEMPLATE_EXAMPLE, TEMPLATE_MAX } from "./feed-link-template.js";

interface FeedTemplateFormProps {
  workspace: Workspace;
  /** "Turn on feeds" while they are off, "Save" once on. */
  submitLabel: string;
  busyLabel: string;
  /** The workspace as the server answered (`setPublicFeeds`). */
  onSaved: (workspace: Workspace) => void;
}

/**
 * The feeds' link template, which turns the feeds on (or changes where they link): checked on
 * submit as admin.yaml's `FeedLinkTemplate` is, and the server's 400 — every one this operation
 * answers is about its only field — said on the field, which takes the focus.
 */
export function FeedTemplateForm({
  workspace,
  submitLabel,
  busyLabel,
  onSaved,
}: FeedTemplateFormProps) {
  const [value, setValue] = useState(workspace.publicFeeds?.linkTemplate ?? "");
  const form = useCheckedForm<"linkTemplate">();
  const button = useRef<HTMLButtonElement>(null);
  const { busy, error, submit } = useSubmit((err) => {
    if (!(err instanceof ApiError && err.status === 400)) return messageOf(err);
    form.showOnField("linkTemplate", messageOf(err));
    return null;
  });
  const save = form.checked(
    () => {
      const problem = checkLinkTemplate(value);
      return problem === null ? {} : { linkTemplate: problem };
    },
    submit(async () => {
      const saved = await call(
        api.PUT("/workspaces/{workspaceId}/public-feeds", {
          params: { path: { workspaceId: workspace.id } },
          body: { linkTemplate: value.trim() },
        }),
      );
      setValue(saved.publicFeeds?.linkTemplate ?? value.trim());
      onSaved(saved);
      // The button was disabled while it ran, which took the focus from it: give it back once
      // it is enabled again, unless the form is gone (feeds just turned on) or focus moved on.
      requestAnimationFrame(() => {
        if (document.activeElement === document.body) button.current?.focus();
      });
    }),
  );
  return (
    <form class="stack" noValidate ref={form.formRef} onSubmit={save}>
      <Field
        label="Link template"
        hint={
          <>
            The address of a blog's page on your site, with <code>{"{slug}"}</code> where the blog's
            slug goes (and optionally <code>{"{id}"}</code>, its ID). The feeds link each blog
            there.
          </>
        }
        error={form.errors.linkTemplate}
      >
        {(p) => (
          <input
            {...p}
            type="url"
            inputMode="url"
            autocomplete="off"
            spellcheck={false}
            maxLength={TEMPLATE_MAX}
            placeholder={TEMPLATE_EXAMPLE}
            value={value}
            onInput={(e) => {
              setValue(e.currentTarget.value);
              form.clear("linkTemplate");
            }}
          />
        )}
      </Field>
      {error && <ErrorMessage message={error} />}
      <div>
        <button type="submit" class="button primary" disabled={busy} ref={button}>
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
