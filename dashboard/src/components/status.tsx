import { useFocusOnMount } from "../hooks.js";
import { exactTime, timeAgo } from "../time.js";

interface ErrorMessageProps {
  message: string;
  onRetry?: () => void;
  /**
   * Takes the focus as it appears: the message of a refused submit whose button was disabled
   * while it ran (or is gone), so the focus lands on what went wrong, not on the `<body>`.
   */
  focus?: boolean;
}

/** A server (or network) error, announced to screen readers, with an optional retry. */
export function ErrorMessage({ message, onRetry, focus = false }: ErrorMessageProps) {
  const ref = useFocusOnMount<HTMLDivElement>(focus);
  return (
    <div class="notice error" role="alert" ref={ref} tabIndex={focus ? -1 : undefined}>
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
