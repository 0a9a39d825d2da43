import { useState } from "preact/hooks";
import { adminLimits } from "../../../openapi/generated/admin-limits.js";
import type { AdminBlog } from "../api.js";
import { committedTags, type Draft } from "../blog-draft.js";
import { Field } from "../components/field.js";
import { useBodyPreview } from "../preview.js";

/** A new blog's limits; an edit's (updateBlog) are the same, as admin.yaml's BlogPatch says. */
const limits = adminLimits.createBlog;

interface BlogFormProps {
  workspaceId: string;
  draft: Draft;
  onChange: (draft: Draft) => void;
  /** The blog as loaded or last saved (its body's HTML needs no preview request); null if new. */
  saved: Pick<AdminBlog, "bodyMarkdown" | "bodyHtml" | "slug"> | null;
}

/** The editor's fields, and the Markdown body beside its live preview. */
export function BlogFields({ workspaceId, draft, onChange, saved }: BlogFormProps) {
  const bind = (field: keyof Draft) => ({
    value: draft[field],
    onInput: (event: Event) =>
      onChange({ ...draft, [field]: (event.currentTarget as HTMLInputElement).value }),
  });
  const currentSlug = saved?.slug ?? null;
  const [tagProblem, setTagProblem] = useState<string | null>(null);
  // A tag is committed when the field is left: it shows at once the form the server will store.
  const commitTags = () => {
    const { tags, problem } = committedTags(draft.tags);
    setTagProblem(problem);
    if (problem === null && tags.join(", ") !== draft.tags) {
      onChange({ ...draft, tags: tags.join(", ") });
    }
  };
  const preview = useBodyPreview(workspaceId, draft.bodyMarkdown, saved);

  return (
    <>
      <div class="form-grid">
        <Field label="Title" class="span-2">
          {(p) => (
            <input
              {...p}
              {...bind("title")}
              required
              maxLength={limits.title.maxLength}
              class="title-input"
            />
          )}
        </Field>
        <Field
          label="Slug"
          hint="Lower-case letters, digits and dashes. Empty: made from the title."
        >
          {(p) => (
            <input
              {...p}
              {...bind("slug")}
              maxLength={limits.slug.maxLength}
              pattern={limits.slug.pattern}
              placeholder={currentSlug ?? "made-from-the-title"}
              autocomplete="off"
              spellcheck={false}
            />
          )}
        </Field>
        <Field
          label="Tags"
          hint={
            tagProblem ??
            "Separated by commas. Stored in lower case, spaces as dashes: Release Notes → release-notes."
          }
        >
          {(p) => (
            <input
              {...p}
              {...bind("tags")}
              onBlur={commitTags}
              aria-invalid={tagProblem !== null}
              placeholder="news, product"
              autocomplete="off"
              spellcheck={false}
            />
          )}
        </Field>
        <Field label="Cover image URL" hint="An absolute http(s) address, or empty.">
          {(p) => (
            <input
              {...p}
              {...bind("coverImageUrl")}
              type="url"
              maxLength={limits.coverImageUrl.maxLength}
              placeholder="https://…"
            />
          )}
        </Field>
        <Field label="Author" hint="The name readers see.">
          {(p) => (
            <input
              {...p}
              {...bind("authorName")}
              maxLength={limits.authorName.maxLength}
              autocomplete="name"
            />
          )}
        </Field>
        <Field
          label="Excerpt"
          class="span-2"
          hint="Optional. Empty: the start of the first paragraph."
        >
          {(p) => (
            <textarea {...p} {...bind("excerpt")} maxLength={limits.excerpt.maxLength} rows={2} />
          )}
        </Field>
      </div>
      <div class="body-editor">
        <Field label="Body (Markdown)" class="body-field">
          {(p) => (
            <textarea
              {...p}
              {...bind("bodyMarkdown")}
              class="mono"
              rows={18}
              maxLength={limits.bodyMarkdown.maxLength}
              placeholder={
                "## A heading\n\nA paragraph with **bold**, *italic* and a [link](https://example.com).\n\n- a list item"
              }
            />
          )}
        </Field>
        <section class="preview" aria-labelledby="preview-title" aria-busy={preview.pending}>
          <h2 id="preview-title" class="label-like">
            Preview
          </h2>
          <div role="status">
            {preview.problem && <p class="notice info preview-problem">{preview.problem}</p>}
          </div>
          {draft.bodyMarkdown.trim() === "" || preview.html === null ? (
            <div class="prose">
              <p class="muted">
                {draft.bodyMarkdown.trim() === ""
                  ? "The preview appears here as you write: what consumers will get."
                  : "Rendering the preview…"}
              </p>
            </div>
          ) : (
            // The server's rendering, sanitised exactly as on save (admin.yaml, previewBlogBody):
            // no script, event handler, style or id survives it.
            <div
              class={preview.pending || preview.problem !== null ? "prose stale" : "prose"}
              dangerouslySetInnerHTML={{ __html: preview.html }}
            />
          )}
        </section>
      </div>
    </>
  );
}
