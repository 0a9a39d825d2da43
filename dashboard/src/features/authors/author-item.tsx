import { useState } from "preact/hooks";
import type { Author } from "../../api.js";
import { websiteText } from "./author-text.js";

interface AuthorItemProps {
  author: Author;
  onEdit: () => void;
  onRemove: () => void;
}

/** One author: avatar, name, slug, website and bio, with Edit and Remove. */
export function AuthorItem({ author: a, onEdit, onRemove }: AuthorItemProps) {
  return (
    <li class="author">
      <Avatar url={a.avatarUrl} name={a.name} />
      <div class="author-main">
        <h2 class="author-name">{a.name}</h2>
        <p class="author-facts">
          <span class="mono author-slug">
            <span class="visually-hidden">Slug: </span>
            {a.slug}
          </span>
          {a.websiteUrl && (
            <a class="author-website" href={a.websiteUrl} rel="noopener noreferrer" target="_blank">
              {websiteText(a.websiteUrl)}
              <span class="visually-hidden"> (website, opens in a new tab)</span>
            </a>
          )}
        </p>
        {a.bio && <p class="author-bio">{a.bio}</p>}
      </div>
      <div class="row-actions author-actions">
        <button type="button" class="button small" onClick={onEdit}>
          Edit<span class="visually-hidden"> {a.name}</span>
        </button>
        <button type="button" class="button small danger-outline" onClick={onRemove}>
          Remove<span class="visually-hidden"> {a.name}</span>
        </button>
      </div>
    </li>
  );
}

/**
 * The author's picture (`alt=""`: the name stands beside it), from someone else's server: lazily,
 * without a Referer. None, or one that fails to load, is the name's first letter.
 */
export function Avatar({ url, name }: { url: string | null; name: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (url === null || failed === url) {
    return (
      <span class="avatar avatar-none" aria-hidden="true">
        {name.trim().charAt(0).toUpperCase()}
      </span>
    );
  }
  return (
    <img
      class="avatar"
      src={url}
      alt=""
      width={48}
      height={48}
      loading="lazy"
      referrerpolicy="no-referrer"
      onError={() => setFailed(url)}
    />
  );
}
