import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { type Author, api, call, messageOf } from "../../api.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import {
  type AuthorField,
  type AuthorForm,
  authorInputOf,
  authorPatchOf,
  authorProblemOf,
  checkAuthorForm,
  EMPTY_AUTHOR_FORM,
  formOf,
  SLUG_RULE,
} from "./author-text.js";

/** createAuthor's limits; updateAuthor's are the same. */
const limits = adminLimits.createAuthor;

interface AuthorDialogProps {
  workspaceId: string;
  /** The author to edit; absent to add one. */
  author?: Author;
  /** The author as the server stored it (added, or changed). */
  onSaved: (author: Author) => void;
  onClose: () => void;
}

/** Adds an author or edits one: name, slug, bio, avatar and website. */
export function AuthorDialog({ workspaceId, author, onSaved, onClose }: AuthorDialogProps) {
  const [form, setForm] = useState<AuthorForm>(author ? formOf(author) : EMPTY_AUTHOR_FORM);
  const checked = useCheckedForm<AuthorField>();
  // A 400 or 409 about one field is said under it; anything else above the buttons.
  const { busy, error, submit } = useSubmit((err) => {
    const problem = authorProblemOf(err);
    if (problem === null) return messageOf(err);
    checked.showOnField(problem.field, problem.message);
    return null;
  });
  const bind = (field: AuthorField) => ({
    value: form[field],
    onInput: (event: Event) => {
      setForm({ ...form, [field]: (event.currentTarget as HTMLInputElement).value });
      checked.clear(field);
    },
  });

  const save = checked.checked(
    () => checkAuthorForm(form),
    submit(async () => {
      if (author === undefined) {
        onSaved(
          await call(
            api.POST("/workspaces/{workspaceId}/authors", {
              params: { path: { workspaceId } },
              body: authorInputOf(form),
            }),
          ),
        );
        return;
      }
      const patch = authorPatchOf(author, form);
      // Nothing changed: nothing to send (the spec refuses an empty patch).
      if (Object.keys(patch).length === 0) return onSaved(author);
      onSaved(
        await call(
          api.PATCH("/workspaces/{workspaceId}/authors/{authorId}", {
            params: { path: { workspaceId, authorId: author.id } },
            body: patch,
          }),
        ),
      );
    }),
  );

  return (
    <Modal
      title={author ? `Edit ${author.name}` : "Add an author"}
      onClose={onClose}
      description="Sites built on this workspace show authors on their blogs and author pages."
    >
      <form class="stack" noValidate ref={checked.formRef} onSubmit={save}>
        <Field label="Name" error={checked.errors.name}>
          {(p) => (
            <input
              {...p}
              {...bind("name")}
              required
              maxLength={limits.name.maxLength}
              autofocus
              autocomplete="off"
            />
          )}
        </Field>
        <Field label="Slug" hint={SLUG_RULE} error={checked.errors.slug}>
          {(p) => (
            <input
              {...p}
              {...bind("slug")}
              maxLength={limits.slug.maxLength}
              placeholder={author?.slug ?? "made-from-the-name"}
              autocomplete="off"
              spellcheck={false}
            />
          )}
        </Field>
        <Field
          label="Bio"
          hint="Optional. Plain text; line breaks are kept."
          error={checked.errors.bio}
        >
          {(p) => <textarea {...p} {...bind("bio")} maxLength={limits.bio.maxLength} rows={4} />}
        </Field>
        <Field
          label="Avatar URL"
          hint="Optional. An absolute http(s) address of the picture."
          error={checked.errors.avatarUrl}
        >
          {(p) => (
            <input
              {...p}
              {...bind("avatarUrl")}
              type="url"
              maxLength={limits.avatarUrl.maxLength}
              placeholder="https://…"
              autocomplete="off"
              spellcheck={false}
            />
          )}
        </Field>
        <Field
          label="Website URL"
          hint="Optional. An absolute http(s) address."
          error={checked.errors.websiteUrl}
        >
          {(p) => (
            <input
              {...p}
              {...bind("websiteUrl")}
              type="url"
              maxLength={limits.websiteUrl.maxLength}
              placeholder="https://…"
              autocomplete="url"
              spellcheck={false}
            />
          )}
        </Field>
        {error && <ErrorMessage message={error} focus />}
        <div class="modal-actions">
          <button type="button" class="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="button primary" disabled={busy}>
            {author ? (busy ? "Saving…" : "Save") : busy ? "Adding…" : "Add author"}
          </button>
        </div>
      </form>
    </Modal>
  );
}
