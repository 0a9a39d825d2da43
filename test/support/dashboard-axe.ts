import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the offending elements. */
  targets: string[];
}

let axeSource: string | undefined;

/**
 * Runs axe-core on the page as it is now. The dashboard's Content-Security-Policy
 * (`script-src 'self'`) refuses the inline script `page.addScriptTag` would add, so axe is
 * evaluated through the DevTools protocol instead, which that policy does not govern: the page
 * keeps its real CSP while it is tested.
 */
export async function axeViolations(page: Page): Promise<A11yViolation[]> {
  if (!(await page.evaluate(() => "axe" in window))) {
    axeSource ??= readFileSync(AXE_PATH, "utf8");
    await page.evaluate(axeSource);
  }
  return page.evaluate(async () => {
    interface AxeResult {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[] }[];
      }[];
    }
    const axe = (
      window as unknown as { axe: { run(ctx: Document, o: object): Promise<AxeResult> } }
    ).axe;
    const { violations } = await axe.run(document, { resultTypes: ["violations"] });
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(" ")),
    }));
  });
}

/** The serious and critical violations, formatted one per line for a failure message. */
export async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page))
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.targets.join(", ")}`);
}
