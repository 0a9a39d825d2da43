const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "just now", "42 seconds ago", "3 minutes ago", "yesterday", "2 months ago". */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (seconds < 10) return "just now"; // also absorbs a little clock skew into the future
  if (seconds < 60) return `${seconds} seconds ago`;
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return relative.format(-Math.floor(seconds / size), unit);
  }
  return relative.format(-Math.floor(seconds / 60), "minute");
}

const exact = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The exact local time, for a tooltip. */
export const exactTime = (iso: string): string => exact.format(new Date(iso));

/** "in 42 seconds", "in 5 minutes", "tomorrow", "in 3 days"; "now" once it has passed. */
export function timeUntil(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (seconds <= 0) return "now";
  if (seconds < 60) return `in ${seconds} seconds`;
  for (const [unit, size] of UNITS) {
    // Rounded, not floored: a key minted for 90 days a minute ago expires "in 3 months".
    if (seconds >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(Math.round(seconds / 60), "minute");
}

const zoned = new Intl.DateTimeFormat(undefined, {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZoneName: "shortOffset",
});

/** The local date and time with the viewer's UTC offset: "Nov 29, 2026, 10:35 PM GMT+1". */
export const zonedTime = (iso: string): string => zoned.format(new Date(iso));
