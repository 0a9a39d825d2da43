import { useId } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import type { AdminBlog, Author } from "../../api.js";
import { Field } from "../../components/field.js";
import type { Load } from "../../use-load.js";
import { AuthorPicker } from "./author-picker.js";
import type { BlogErrors, BlogField } from "./blog-checks.js";
import { committedTags, type Draft, type TextField } from "./blog-draft.js";
import { BodyEditor } from "./body-editor.js";
import { CoverPicker } from "./cover-picker.js";
import { SeoSection } from "./seo-fields.js";
import { readingTimeText } from "./seo-text.js";

/** A new blog's limits; an edit's (updateBlog) are the same, as admin.yaml's BlogPatch says. */
const limits = adminLimits.createBlog;

interface BlogFormProps {
  workspaceId: string;
  draft: Draft;
  onChange: (draft: Draft) => void;
  /** The blog as loaded or last saved (its body's HTML needs no preview request); null if new. */
  saved: Pick<AdminBlog, "bodyMarkdown" | "bodyHtml" | "slug" | "readingTimeMinutes"> | null;
  /** Each field's problem, shown under it (the form checks on submit: `noValidate`). */
  errors: BlogErrors;
  /** Sets (or, with null, clears) one field's problem: the tags' as soon as the field is left. */
  onError: (field: BlogField, problem: string | null) => void;
  /** The workspace's authors, for the Authors field. */
  authors: Load<Author[]>;
}

/**
 * The editor's fields, each with its inline error, the Markdown body with its live preview, and
 * the search and social fields with theirs.
 */
export function BlogFields({
  workspaceId,
  draft,
  onChange,
  saved,
  errors,
  onError,
  authors,
}: BlogFormProps) {
  const bind = (field: TextField) => ({
    value: draft[field],
    onInput: (event: Event) =>
      onChange({ ...draft, [field]: (event.currentTarget as HTMLInputElement).value }),
  });
  const currentSlug = saved?.slug ?? null;
  // A tag is committed when the field is left: it shows at once the form the server will store.
  const commitTags = () => {
    const { tags, problem } = committedTags(draft.tags);
    onError("tags", problem);
    if (problem === null && tags.join(", ") !== draft.tags) {
      onChange({ ...draft, tags: tags.join(", ") });
    }
  };

  return (
    <>
      <div class="form-grid">
        <Field label="Title" class="span-2 title-field" error={errors.title}>
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
          error={errors.slug}
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
          hint="Separated by commas. Stored in lower case, spaces as dashes: Release Notes → release-notes."
          error={errors.tags}
        >
          {(p) => (
            <input
              {...p}
              {...bind("tags")}
              onBlur={commitTags}
              placeholder="news, product"
              autocomplete="off"
              spellcheck={false}
            />
          )}
        </Field>
        <Field
          label="Cover image URL"
          hint="An absolute http(s) address, or empty."
          error={errors.coverImageUrl}
        >
          {(p) => (
            // One row: the picker's button beside the URL, so the body field stays in the
            // editor's first screen at 1280×800 (dashboard-home-and-editor-fold.test.ts).
            <div class="cover-url">
              <input
                {...p}
                {...bind("coverImageUrl")}
                type="url"
                maxLength={limits.coverImageUrl.maxLength}
                placeholder="https://…"
              />
              <CoverPicker
                workspaceId={workspaceId}
                onChoose={(coverImageUrl, coverImageAlt) =>
                  onChange({ ...draft, coverImageUrl, coverImageAlt })
                }
              />
            </div>
          )}
        </Field>
        <Field label="Alt text" hint="What the cover shows, in words." error={errors.coverImageAlt}>
          {(p) => (
            <input {...p} {...bind("coverImageAlt")} maxLength={limits.coverImageAlt.maxLength} />
          )}
        </Field>
        <Field
          label="Author"
          hint="The byline, when no author is chosen."
          error={errors.authorName}
        >
          {(p) => (
            <input
              {...p}
              {...bind("authorName")}
              maxLength={limits.authorName.maxLength}
              autocomplete="name"
            />
          )}
        </Field>
        <FeaturedField
          checked={draft.featured}
          onChange={(featured) => onChange({ ...draft, featured })}
        />
        <Field
          label="Excerpt"
          class="span-2 excerpt-field"
          hint="Optional. Empty: the start of the first paragraph."
          error={errors.excerpt}
        >
          {(p) => (
            <textarea {...p} {...bind("excerpt")} maxLength={limits.excerpt.maxLength} rows={2} />
          )}
        </Field>
      </div>
      <BodyEditor
        workspaceId={workspaceId}
        value={draft.bodyMarkdown}
        onInput={(bodyMarkdown) => onChange({ ...draft, bodyMarkdown })}
        saved={saved}
        error={errors.bodyMarkdown}
        readingTime={saved && readingTimeText(saved.readingTimeMinutes)}
      />
      <AuthorPicker
        workspaceId={workspaceId}
        chosen={draft.authors}
        onChange={(chosen) => onChange({ ...draft, authors: chosen })}
        available={authors}
        error={errors.authors}
      />
      <SeoSection draft={draft} bind={bind} errors={errors} savedSlug={currentSlug} />
    </>
  );
}

/** Featured: a checkbox before its name, described by what it does. */
function FeaturedField(props: { checked: boolean; onChange: (featured: boolean) => void }) {
  const hint = useId();
  return (
    <div class="field featured-field">
      <label class="featured-check">
        <input
          type="checkbox"
          checked={props.checked}
          aria-describedby={hint}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
        />
        <span>Featured</span>
      </label>
      <p class="hint" id={hint}>
        Consumers can list only these.
      </p>
    </div>
  );
}
