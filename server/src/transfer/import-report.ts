/**
 * What an import tells its caller: the plan's count and action of every entry, and what was
 * written. The admin API answers it (admin.yaml `ImportReport`) and both CLI modes print it.
 */
import type { BlogStatus } from "../platform/db/collections.js";
import type { ApplyResult } from "./import-apply.js";
import { type ImportPlan, type PlanAction, planCounts } from "./import-plan.js";

export interface ImportReportEntry {
  readonly origin: string;
  /** The blog's id in Pressroom. */
  readonly id: string;
  readonly slug: string;
  readonly action: PlanAction;
  readonly status: BlogStatus;
  readonly reason?: string;
}

/** An author the import names or lists: created (or, on a dry run, to be), or used as it is. */
export interface ImportReportAuthor {
  readonly slug: string;
  /** The workspace's name for an existing author, else the source's. */
  readonly name: string;
  readonly action: "create" | "existing";
}

export interface ImportReport {
  readonly dryRun: boolean;
  readonly counts: Readonly<Record<PlanAction, number>>;
  readonly authors: ImportReportAuthor[];
  readonly entries: ImportReportEntry[];
  /** What was written; null on a dry run. */
  readonly applied: ApplyResult | null;
}

export function importReport(plan: ImportPlan, applied: ApplyResult | null): ImportReport {
  const { skipped: _skipped, ...counts } = planCounts(plan);
  return {
    dryRun: applied === null,
    counts,
    authors: plan.authors.map(({ slug, name, action }) => ({ slug, name, action })),
    entries: plan.entries.map((e) => ({
      origin: e.blog.origin,
      id: e.id,
      slug: e.blog.slug,
      action: e.action,
      status: e.blog.status,
      ...(e.reason === undefined ? {} : { reason: e.reason }),
    })),
    applied,
  };
}
