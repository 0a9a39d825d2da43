import type { Media } from "../../api.js";
import { factsOf } from "./media-text.js";
import { Thumbnail } from "./thumbnail.js";

interface MediaItemProps {
  media: Media;
  onCopy: () => void;
  onEditAlt: () => void;
  onDelete: () => void;
}

/**
 * One library image: its thumbnail (lazily, with its own size so the grid never jumps as it
 * loads), name, format, size, alt text, and Copy Markdown, Edit alt text and Delete.
 */
export function MediaItem({ media: m, onCopy, onEditAlt, onDelete }: MediaItemProps) {
  return (
    <li class="media-card">
      <div class="media-thumb">
        <Thumbnail media={m} alt={m.alt} />
      </div>
      <div class="media-main">
        <h2 class="media-name">{m.name}</h2>
        <p class="media-facts">{factsOf(m)}</p>
        {m.alt === "" ? (
          <p class="media-alt media-no-alt">No alt text yet.</p>
        ) : (
          <p class="media-alt">
            <span class="visually-hidden">Alt text: </span>
            {m.alt}
          </p>
        )}
      </div>
      <div class="media-actions">
        <button type="button" class="button small" onClick={onCopy}>
          Copy Markdown<span class="visually-hidden"> of {m.name}</span>
        </button>
        <button type="button" class="button small" onClick={onEditAlt}>
          {m.alt === "" ? "Add alt text" : "Edit alt text"}
          <span class="visually-hidden"> of {m.name}</span>
        </button>
        <button type="button" class="button small danger-outline" onClick={onDelete}>
          Delete<span class="visually-hidden"> {m.name}</span>
        </button>
      </div>
    </li>
  );
}
