/**
 * What `pressroom import` prints, in both modes (on the server's machine, and `--server`): a
 * progress line while it reads and renders, then the plan or what was written.
 */
import type { ImportReport } from "../transfer/import-report.js";
import type { ImportEntries, OnProgress } from "../transfer/import-set.js";
import { type Output, table } from "./output.js";

/** A progress line on stderr at most once a second, and the last one. */
export function progressLine(out: Output): OnProgress {
  let last = Date.now();
  let printed = false;
  return (step, done, total) => {
    const now = Date.now();
    if (now - last < 1000 && !(done === total && printed)) return;
    last = now;
    printed = done < total;
    const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
    out.note(
      `${step}: ${done.toLocaleString("en")} of ${total.toLocaleString("en")} blogs (${pct}%)`,
    );
  };
}

/**
 * The import's outcome: on a dry run every entry's action, else the conflicts only; with
 * `--json`, one object (`applied` only when something was written).
 */
export function printImport(
  report: ImportReport,
  read: Pick<ImportEntries, "skipped" | "notes">,
  out: Output,
): void {
  const { dryRun, counts, entries, applied } = report;
  const shown = dryRun ? entries : entries.filter((e) => e.action === "conflict");
  const text = [
    `${dryRun ? "Dry run, nothing written: would" : "Imported:"} create ${counts.create}, update ${counts.update}, leave ${counts.unchanged} unchanged; ${counts.conflict} conflict(s), ${read.skipped.length} skipped.`,
    ...(shown.length === 0
      ? []
      : [
          table(
            ["ORIGIN", "SLUG", "ACTION", "STATUS"],
            shown.map((e) => [
              e.origin,
              e.slug,
              e.reason ? `${e.action}: ${e.reason}` : e.action,
              e.status,
            ]),
          ),
        ]),
    ...report.authors.map((a) =>
      a.action === "create"
        ? `author ${a.slug} (${a.name}): ${dryRun ? "would be created" : "created"}`
        : `author ${a.slug}: the workspace's (${a.name}), used as it is`,
    ),
    ...read.skipped.map((s) => `skipped ${s.origin}: ${s.reason}`),
    ...read.notes,
  ].join("\n");
  out.result(
    {
      dryRun,
      counts: { ...counts, skipped: read.skipped.length },
      authors: report.authors,
      entries,
      skipped: read.skipped,
      notes: read.notes,
      ...(applied === null ? {} : { applied }),
    },
    text,
  );
}
