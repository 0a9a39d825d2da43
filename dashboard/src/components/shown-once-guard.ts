/**
 * How long "Close without copying" (shown-once-dialog.tsx) stays disabled after it appears. It
 * appears where "Done" was, so the second tap of a double tap on "Done" (some 100–300 ms after
 * the first on a phone) would land on it; a disabled button takes that tap and does nothing.
 * Half a second outlasts a double tap and is shorter than reading the question.
 */
export const CLOSE_ARMS_AFTER_MS = 500;
