/**
 * The fairness bench's report: tenant A alone and beside each abuser, ratios to alone, and
 * the targets (README, "Fair sharing between tenants"): A's consumer p99 and save p99 beside an
 * abuser at most 2× alone, every save of A's successful, A's webhook lag at most alone + 2 s.
 */
import { execFileSync } from "node:child_process";
import type { Abuse } from "./abusers.js";
import type { WindowFigures } from "./tenant-a.js";

export interface FairnessRun {
  readonly alone: WindowFigures;
  readonly beside: readonly { abuse: Abuse; figures: WindowFigures; answered: string }[];
  readonly seconds: number;
  readonly connections: number;
  readonly machine: string;
}

const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 1 : 0)} ms` : "—");
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const mark = (met: boolean) => (met ? "met" : "**missed**");

function commit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

export function fairnessReport(run: FairnessRun): string {
  const { alone } = run;
  const row = (name: string, f: WindowFigures) =>
    `| ${name} | ${ms(f.consumer.p50)}${f.consumer.failed > 0 ? ` (${f.consumer.failed} of ${f.consumer.count} not 200)` : ""} | ${ms(f.consumer.p99)} (${ratio(f.consumer.p99, alone.consumer.p99)}) | ` +
    `${f.saves.ok}/${f.saves.count} | ${ms(f.saves.p99)} (${ratio(f.saves.p99, alone.saves.p99)}) | ` +
    `${ms(f.webhook.p50)} / ${ms(f.webhook.max)} (${ms(f.webhook.sinceWriteMax)})${f.webhook.missing > 0 ? `, ${f.webhook.missing} of ${f.webhook.count} not delivered in 30 s` : ""} |`;
  const targets = run.beside.map(({ abuse, figures: f }) => {
    const checks = [
      `consumer p99 ${ratio(f.consumer.p99, alone.consumer.p99)} ≤ 2×: ${mark(f.consumer.p99 <= 2 * alone.consumer.p99)}`,
      `save p99 ${ratio(f.saves.p99, alone.saves.p99)} ≤ 2×: ${mark(f.saves.p99 <= 2 * alone.saves.p99)}`,
      `saves ${f.saves.ok}/${f.saves.count} successful: ${mark(f.saves.ok === f.saves.count)}`,
      `webhook lag max ${ms(f.webhook.max)} ≤ alone + 2 s (${ms(alone.webhook.max + 2000)}): ` +
        mark(f.webhook.missing === 0 && f.webhook.max <= alone.webhook.max + 2000),
    ];
    return `- ${abuse.name}: ${checks.join("; ")}.`;
  });
  return [
    "## Fairness between tenants (`npm run bench:fairness`)",
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} at commit ${commit()} on ${run.machine}: ` +
      `Pressroom as \`npm start\` runs it on the embedded database; tenant A's ${run.connections} ` +
      `closed-loop consumer connections (list, page of 20), one writer saving blog after blog, and a ` +
      `blog released every second to a webhook endpoint that answers at once; windows of ${run.seconds} s, ` +
      "alone and beside each abuser in turn (each in a process of its own, on the same cores), in " +
      "one run. Ratios are to A alone.",
    "",
    "| tenant A's window | consumer p50 | consumer p99 (ratio) | saves ok | save p99 (ratio) | webhook lag p50 / max (max from the write) |",
    "|---|---|---|---|---|---|",
    row("alone", alone),
    ...run.beside.map(({ abuse, figures }) => row(`beside ${abuse.name}`, figures)),
    "",
    "What each abuser was answered:",
    "",
    ...run.beside.map(({ abuse, answered }) => `- ${abuse.name}: ${answered}.`),
    "",
    'Targets (README, "Fair sharing between tenants"):',
    "",
    ...targets,
  ].join("\n");
}
