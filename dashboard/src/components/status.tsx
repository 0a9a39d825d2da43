import { exactTime, timeAgo } from "../time.js";

/** A server (or network) error, announced to screen readers, with an optional retry. */
export function ErrorMessage({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div class="notice error" role="alert">
      <span>{message}</span>
      {onRetry && (
        <button type="button" class="button small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** "3 minutes ago", with the exact time on hover and in `dateTime`. */
export function TimeAgo({ iso, now }: { iso: string; now: number }) {
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {timeAgo(iso, now)}
    </time>
  );
}
