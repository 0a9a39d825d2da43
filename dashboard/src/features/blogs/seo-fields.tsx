import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { Field } from "../../components/field.js";
import type { BlogErrors } from "./blog-checks.js";
import { type Draft, oneLine, type TextField } from "./blog-draft.js";
import { SearchPreview, SocialPreview } from "./seo-previews.js";
import { SEARCH_DESCRIPTION_CHARS, SEARCH_TITLE_CHARS } from "./seo-text.js";
import "./seo.css";

/** A new blog's limits; an edit's (updateBlog) are the same, as admin.yaml's BlogPatch says. */
const limits = adminLimits.createBlog;

/** The fields of the "Search and social" section. */
export const SEO_FIELDS = [
  "metaTitle",
  "metaDescription",
  "canonicalUrl",
  "socialImageUrl",
] as const;

interface SeoSectionProps {
  draft: Draft;
  /** Binds a text control to its field of the draft. */
  bind: (field: TextField) => { value: string; onInput: (event: Event) => void };
  errors: BlogErrors;
  /** The saved blog's slug, for the search result's address (null: a new blog). */
  savedSlug: string | null;
}

/** "12 of <limit> characters", of the text as it will be saved (one line, trimmed). */
const countOf = (typed: string, max: number) => `${oneLine(typed).length} of ${max} characters.`;

/**
 * "Search and social" (openapi.yaml, "Presentation and search fields"): the meta title and
 * description, the canonical URL and the social image, with live previews of a search result
 * and of a social card. A native disclosure, closed unless one of its fields is set when the
 * editor opens; a refused field inside it opens it, so the focus can reach that field, and so
 * does a field set from elsewhere (a restored copy, their version in a conflict).
 */
export function SeoSection({ draft, bind, errors, savedSlug }: SeoSectionProps) {
  const setCount = SEO_FIELDS.filter((f) => draft[f].trim() !== "").length;
  const [open, setOpen] = useState(setCount > 0);
  const refused = SEO_FIELDS.some((f) => errors[f] !== undefined);
  // Before the next frame, when focusFirstInvalid looks for the refused control.
  useLayoutEffect(() => {
    if (refused) setOpen(true);
  }, [refused, errors]);
  // A field set while the section was closed came from elsewhere (restored text, their version
  // taken): shown, not hidden behind the summary.
  const counted = useRef(setCount);
  useLayoutEffect(() => {
    if (setCount > counted.current) setOpen(true);
    counted.current = setCount;
  }, [setCount]);

  return (
    <details
      class="seo-section"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>
        <span class="seo-summary-title">Search and social</span>{" "}
        <span class="seo-summary-state">
          {setCount === 0 ? "Using the defaults" : `${setCount} of ${SEO_FIELDS.length} set`}
        </span>
      </summary>
      <div class="seo-body">
        <div class="form-grid seo-fields">
          <Field
            label="Meta title"
            hint={`Leave empty to use the title. ${countOf(draft.metaTitle, limits.metaTitle.maxLength)} Search results show about ${SEARCH_TITLE_CHARS}.`}
            error={errors.metaTitle}
          >
            {(p) => <input {...p} {...bind("metaTitle")} maxLength={limits.metaTitle.maxLength} />}
          </Field>
          <Field
            label="Meta description"
            hint={`Leave empty to use the excerpt. ${countOf(draft.metaDescription, limits.metaDescription.maxLength)} Search results show about ${SEARCH_DESCRIPTION_CHARS}.`}
            error={errors.metaDescription}
          >
            {(p) => (
              <textarea
                {...p}
                {...bind("metaDescription")}
                maxLength={limits.metaDescription.maxLength}
                rows={2}
              />
            )}
          </Field>
          <Field
            label="Canonical URL"
            hint="Only if the blog was first published elsewhere: that page's address. Leave empty when this blog is the original."
            error={errors.canonicalUrl}
          >
            {(p) => (
              <input
                {...p}
                {...bind("canonicalUrl")}
                type="url"
                maxLength={limits.canonicalUrl.maxLength}
                placeholder="https://…"
                autocomplete="off"
              />
            )}
          </Field>
          <Field
            label="Social image URL"
            hint="The image of links shared on social media. Leave empty to use the cover image."
            error={errors.socialImageUrl}
          >
            {(p) => (
              <input
                {...p}
                {...bind("socialImageUrl")}
                type="url"
                maxLength={limits.socialImageUrl.maxLength}
                placeholder="https://…"
                autocomplete="off"
              />
            )}
          </Field>
        </div>
        <div class="seo-previews">
          <SearchPreview draft={draft} savedSlug={savedSlug} />
          <SocialPreview draft={draft} savedSlug={savedSlug} />
        </div>
      </div>
    </details>
  );
}
