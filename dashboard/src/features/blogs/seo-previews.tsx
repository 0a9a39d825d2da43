import { useEffect, useState } from "preact/hooks";
import type { Draft } from "./blog-draft.js";
import {
  addressLineOf,
  CARD_DESCRIPTION_CHARS,
  CARD_TITLE_CHARS,
  cardImageOf,
  clip,
  descriptionOf,
  hostOf,
  pageTitleOf,
  SEARCH_DESCRIPTION_CHARS,
  SEARCH_TITLE_CHARS,
} from "./seo-text.js";

// Every text here is the writer's plain text, rendered as text (Preact escapes it): what
// consumers are told to do with these fields (openapi.yaml, "Presentation and search fields").

interface PreviewProps {
  draft: Draft;
  /** The saved blog's slug (a new blog has none yet). */
  savedSlug: string | null;
}

const NO_TITLE = "Your blog’s title";

/** How the blog would show in a search engine's results, as the form says now. */
export function SearchPreview({ draft, savedSlug }: PreviewProps) {
  const description = descriptionOf(draft);
  return (
    <figure class="seo-preview">
      <figcaption class="label-like">Search result preview</figcaption>
      <div class="serp">
        <p class="serp-address">{addressLineOf(draft, savedSlug)}</p>
        <p class="serp-title">{clip(pageTitleOf(draft) || NO_TITLE, SEARCH_TITLE_CHARS)}</p>
        <p class="serp-description">
          {description === "" ? (
            <span class="muted">No description: write an excerpt or a meta description.</span>
          ) : (
            clip(description, SEARCH_DESCRIPTION_CHARS)
          )}
        </p>
      </div>
    </figure>
  );
}

/** How a link to the blog would show on social media: image, site, title and description. */
export function SocialPreview({ draft }: PreviewProps) {
  const host = hostOf(draft.canonicalUrl);
  return (
    <figure class="seo-preview">
      <figcaption class="label-like">Social card preview</figcaption>
      <div class="social-card">
        <CardImage url={cardImageOf(draft)} alt={draft.coverImageAlt.trim()} />
        <div class="social-text">
          {host !== "" && <p class="social-host">{host}</p>}
          <p class="social-title">{clip(pageTitleOf(draft) || NO_TITLE, CARD_TITLE_CHARS)}</p>
          <p class="social-description">{clip(descriptionOf(draft), CARD_DESCRIPTION_CHARS)}</p>
        </div>
      </div>
    </figure>
  );
}

/** Typing pauses this long before a new image address is fetched. */
const IMAGE_AFTER_MS = 500;

/**
 * An image from an address the writer typed, on someone else's server: fetched once typing
 * pauses (not once per keystroke, half-typed hosts included), without a `Referer` (the dashboard's
 * address is none of that server's business), and lazily (not while the section is closed). A
 * missing, refused or broken image is a neutral placeholder, never a broken-image icon.
 */
function CardImage({ url, alt }: { url: string | null; alt: string }) {
  const src = useSettled(url, IMAGE_AFTER_MS);
  const [failed, setFailed] = useState<string | null>(null);
  if (url === null || src === null || failed === src) {
    const said =
      url === null ? "No image" : src === null ? "Loading the image…" : "The image cannot be shown";
    return (
      <div class="social-image social-image-none">
        <span>{said}</span>
      </div>
    );
  }
  return (
    <img
      key={src}
      class="social-image"
      src={src}
      alt={alt}
      referrerpolicy="no-referrer"
      loading="lazy"
      decoding="async"
      onError={() => setFailed(src)}
    />
  );
}

/** `value`, once it has stayed the same for `ms` (at first, and null, at once). */
function useSettled(value: string | null, ms: number): string | null {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === settled) return;
    if (value === null) {
      setSettled(null);
      return;
    }
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}
