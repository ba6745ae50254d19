/**
 * @module scripts/lib/ceiling-ranked
 * The file between `bench:recall --ranked` and `bench:ceiling`: one JSON line per question with what
 * recall returned (external ids, best first), so the ceiling can re-rank a real run without a server.
 * Read back through zod: a line that is not a ranked question names its line number and the field.
 */
import { z } from "zod";
import type { ReachQuestion } from "./bench-reach.ts";
import { ScriptError } from "./wrangler-d1.ts";

export const RankedLine = z.object({
  sample: z.string().min(1).describe("the sample (user) the question was asked of"),
  question: z.string().describe("the question as asked"),
  category: z.string().describe("the question's category (LoCoMo's number as text)"),
  evidence: z.array(z.string()).describe("external ids of the memories that answer it"),
  ranked: z.array(z.string()).describe("external ids recall returned, best first"),
});
export type RankedLine = z.infer<typeof RankedLine>;

/** One sample's questions as JSON lines, each ending in a newline. */
export function rankedLines(sample: string, questions: ReachQuestion[]): string {
  return questions.map((q) => `${JSON.stringify({ sample, ...q })}\n`).join("");
}

/** Parses a `--ranked` file; throws naming the first bad line and field. */
export function parseRanked(text: string): RankedLine[] {
  const out: RankedLine[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ScriptError(`ranked file line ${i + 1}: not JSON`);
    }
    const parsed = RankedLine.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ScriptError(`ranked file line ${i + 1}: ${issue.path.join(".") || "line"}: ${issue.message}`);
    }
    out.push(parsed.data);
  });
  return out;
}
