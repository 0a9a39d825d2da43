import type { ComponentChildren } from "preact";
import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import type { AdminBlog } from "../../api.js";
import { Field } from "../../components/field.js";
import { ErrorMessage } from "../../components/status.js";
import { PHONE_QUERY, useMediaQuery } from "../../media.js";
import { uploadingText } from "../media/use-uploads.js";
import { type BodyImages, useBodyImages } from "./body-images.js";
import { useBodyPreview } from "./preview.js";
import "./body-editor.css";

interface BodyEditorProps {
  workspaceId: string;
  value: string;
  onInput: (bodyMarkdown: string) => void;
  /** The blog as loaded or last saved (its body's HTML needs no preview request); null if new. */
  saved: Pick<AdminBlog, "bodyMarkdown" | "bodyHtml"> | null;
  /** The body's own problem (a refused save said so), under the text area. */
  error?: string | undefined;
  /** The saved body's reading time ("4 min read"), which the server derives on save; null: none. */
  readingTime?: string | null | undefined;
}

/**
 * The Markdown body and its live preview: side by side on a desk; on a phone (below 720 px)
 * Write and Preview tabs instead, so neither sits a screen away under the other.
 */
export function BodyEditor(props: BodyEditorProps) {
  const { workspaceId, value, onInput, saved, error, readingTime } = props;
  const phone = useMediaQuery(PHONE_QUERY);
  const preview = useBodyPreview(workspaceId, value, saved);
  const images = useBodyImages(workspaceId, value, onInput);
  const write = (
    <>
      <Field
        label="Body (Markdown)"
        class="body-field"
        error={error}
        hint={readingTime ? `${readingTime}, as last saved.` : undefined}
      >
        {(p) => (
          <textarea
            {...p}
            ref={images.ref}
            value={value}
            onInput={(event) => onInput(event.currentTarget.value)}
            onPaste={images.onPaste}
            {...images.drop.handlers}
            class={images.drop.dropping ? "mono dropping" : "mono"}
            rows={18}
            maxLength={adminLimits.createBlog.bodyMarkdown.maxLength}
            placeholder={
              "## A heading\n\nA paragraph with **bold**, *italic* and a [link](https://example.com).\n\n- a list item"
            }
          />
        )}
      </Field>
      <BodyImagesStatus images={images} />
    </>
  );
  const shown = (
    <>
      <div role="status">
        {preview.problem && <p class="notice info preview-problem">{preview.problem}</p>}
      </div>
      {value.trim() === "" || preview.html === null ? (
        <div class="prose">
          <p class="muted">
            {value.trim() === ""
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
    </>
  );
  return (
    <BodyLayout
      phone={phone}
      write={write}
      preview={shown}
      pending={preview.pending}
      error={error}
    />
  );
}

/** Images pasted or dropped into the body: uploading, inserted, or why one was refused. */
function BodyImagesStatus({ images }: { images: BodyImages }) {
  const { uploading, problems } = images.uploads;
  return (
    <>
      <div role="status" class="body-images-status">
        {uploading > 0 ? (
          <p class="notice info">{uploadingText(uploading)}</p>
        ) : (
          images.said && <p class="notice success">{images.said}</p>
        )}
      </div>
      {problems.map((p) => (
        <ErrorMessage key={p} message={p} />
      ))}
    </>
  );
}

type Tab = "write" | "preview";
const TABS: readonly Tab[] = ["write", "preview"];

/**
 * ONE tree at every width, so crossing 720 px (a phone turned, a window resized) never remounts
 * the text area (its focus, scroll and undo history stay): side by side on a desk; on a phone
 * the same elements become WAI-ARIA tabs (automatic activation: arrows, Home and End).
 */
function BodyLayout(props: {
  phone: boolean;
  write: ComponentChildren;
  preview: ComponentChildren;
  pending: boolean;
  error: string | undefined;
}) {
  const { phone } = props;
  const [tab, setTab] = useState<Tab>("write");
  const id = useId();
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});
  // A refused body is shown (and focused by focusFirstInvalid, a frame later) on the Write tab.
  useLayoutEffect(() => {
    if (props.error) setTab("write");
  }, [props.error]);
  const choose = (next: Tab) => {
    setTab(next);
    tabRefs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const at = TABS.indexOf(tab);
    const to =
      event.key === "ArrowRight"
        ? TABS[(at + 1) % TABS.length]
        : event.key === "ArrowLeft"
          ? TABS[(at + TABS.length - 1) % TABS.length]
          : event.key === "Home"
            ? TABS[0]
            : event.key === "End"
              ? TABS[TABS.length - 1]
              : undefined;
    if (to === undefined) return;
    event.preventDefault();
    choose(to);
  };
  const panel = (t: Tab) =>
    phone
      ? {
          role: "tabpanel" as const,
          id: `${id}-${t}`,
          "aria-labelledby": `${id}-${t}-tab`,
          hidden: tab !== t,
        }
      : {};
  return (
    <div class={phone ? "body-editor body-tabs" : "body-editor"}>
      <div role="tablist" aria-label="Body" class="tab-list" onKeyDown={onKeyDown} hidden={!phone}>
        {TABS.map((t) => (
          <button
            key={t}
            ref={(el) => {
              tabRefs.current[t] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-${t}-tab`}
            aria-controls={`${id}-${t}`}
            aria-selected={tab === t}
            tabIndex={tab === t ? 0 : -1}
            class="tab"
            onClick={() => setTab(t)}
          >
            {t === "write" ? "Write" : "Preview"}
          </button>
        ))}
      </div>
      <div class="body-write" {...panel("write")}>
        {props.write}
      </div>
      <section
        class="preview"
        aria-labelledby={phone ? undefined : `${id}-preview-title`}
        aria-busy={props.pending}
        {...panel("preview")}
        // The APG's tabs pattern: a panel that may hold nothing focusable is itself in the Tab
        // order, so a keyboard reaches (and scrolls) the preview.
        tabIndex={phone ? 0 : undefined}
      >
        <h2 id={`${id}-preview-title`} class="label-like" hidden={phone}>
          Preview
        </h2>
        {props.preview}
      </section>
    </div>
  );
}
