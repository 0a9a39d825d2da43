/**
 * The report of bench/ghost.ts: one row per question and size (req/s of each system and their
 * ratio, p50, CPU per response, bytes per response), then the targets, how long Ghost's
 * seeding took, and any answer whose status was not its question's.
 */
import { percentile } from "../admin-client.js";
import type { Pair, Totals } from "./side-by-side.js";

export interface SizeResult {
  size: number;
  pairs: readonly Pair[];
  totals: Map<string, Totals>;
  ghostSeedSeconds: number;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The markdown tables of a run: one row per question and size, then the targets. */
export function reportOf(results: readonly SizeResult[]): string[] {
  const rows = [
    "| posts | question | Ghost req/s | Pressroom req/s | Pressroom ÷ Ghost | p50 ms, Ghost / Pressroom | CPU ms / request, Ghost / Pressroom (app + database) | KB / response, Ghost / Pressroom |",
    "|---|---|---:|---:|---:|---|---|---|",
  ];
  const targets = ["| posts | target | measured | |", "|---|---|---|---|"];
  const problems: string[] = [];
  for (const r of results) {
    for (const pair of r.pairs) {
      const t = (side: string) => r.totals.get(`${pair.id}/${side}`) as Totals;
      const [g, p] = [t("Ghost"), t("Pressroom")];
      const rate = (x: Totals) => x.responses / x.seconds;
      const ratio = rate(p) / rate(g);
      const cpu = (x: Totals) => x.cpu.reduce((a, b) => a + b, 0) / x.responses;
      // Pressroom's processes: the app, then its database.
      const split = p.cpu.map((ms) => (ms / p.responses).toFixed(1)).join(" + ");
      const kb = (x: Totals) => x.bytes / x.responses / 1024;
      rows.push(
        `| ${fmt(r.size)} | ${pair.title} | ${fmt(rate(g), 1)} | ${fmt(rate(p), 1)} | ${ratio.toFixed(2)}× | ${percentile(g.latencies, 50).toFixed(0)} / ${percentile(p.latencies, 50).toFixed(0)} | ${cpu(g).toFixed(1)} / ${cpu(p).toFixed(1)} (${split}) | ${kb(g).toFixed(1)} / ${kb(p).toFixed(1)} |`,
      );
      if (pair.target !== null && (r.size === 1000 || r.size === 5000)) {
        const met = ratio >= pair.target;
        targets.push(
          `| ${fmt(r.size)} | ${pair.title}: ≥ ${pair.target}× Ghost's req/s | ${ratio.toFixed(2)}× | ${met ? "✅ met" : "❌ **missed**"} |`,
        );
      }
      for (const [side, x] of [
        ["Ghost", g],
        ["Pressroom", p],
      ] as const) {
        if (x.unexpected.size > 0) {
          problems.push(
            `${r.size} ${pair.id} ${side}: unexpected statuses ${JSON.stringify([...x.unexpected])}`,
          );
        }
      }
    }
  }
  const seeding = results
    .map(
      (r) =>
        `${fmt(r.size)} posts published through Ghost's Admin API in ${fmt(r.ghostSeedSeconds)} s`,
    )
    .join("; ");
  return [
    ...rows,
    "",
    "Targets (issue: list and tag page ≥ 5× Ghost's req/s at 1,000 posts and ≥ 10× at 5,000, `fields` ≥ 3×):",
    "",
    ...targets,
    "",
    `Seeding: ${seeding}.`,
    problems.length === 0
      ? "Every answer had its question's status."
      : `**Answers with another status:** ${problems.join("; ")}.`,
  ];
}
