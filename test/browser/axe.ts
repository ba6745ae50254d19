/**
 * axe-core in a page: its source evaluated through the DevTools protocol (the dashboard's CSP
 * refuses every script, and evaluation from the test is not a page script), then `axe.run` on the
 * whole document. Returns the violations a person would be hurt by: impact serious or critical.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  const results: unknown = await page.evaluate('axe.run(document, { resultTypes: ["violations"] })');
  const violations = (
    results as { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }
  ).violations;
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
}
