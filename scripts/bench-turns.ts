/**
 * @module scripts/bench-turns
 * `npm run bench:turns -- [--data ../shared/data/locomo/locomo-dev.json] [--seed 1]`
 * How well a turn's words predict which LoCoMo turns carry an annotated observation, the question
 * behind bench:extract's coverage and precision. A logistic regression trained on the annotations
 * (turn-classifier.ts), scored leave one conversation out, gives its AUC and its precision at the
 * recalls that matter (the rules' coverage and the targets); beside it, the offline rules' own point,
 * turn by turn (a turn is kept when the rules extract a fact from it). A turn's label is "carries an
 * observation of either speaker", as bench:extract's precision counts it. No server.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseTranscript } from "../src/memory/write/transcript.ts";
import { extractionCases } from "./lib/extract-data.ts";
import { extractOffline } from "./lib/extract-offline.ts";
import { type LabelledTurn, leaveOneGroupOut, precisionAtRecall, rocAuc } from "./lib/turn-classifier.ts";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: "../shared/data/locomo/locomo-dev.json" },
    seed: { type: "string", default: "1" },
  },
});
const cases = extractionCases(JSON.parse(readFileSync(values.data!, "utf8")));

const turns: LabelledTurn[] = [];
const kept: boolean[] = [];
for (const c of cases) {
  for (const session of c.sessions) {
    const facts = extractOffline(parseTranscript(session.transcript, { userName: c.speaker }));
    const produced = new Set(facts.map((f) => (f.turn === null ? "" : session.turns[f.turn - 1]?.diaId)));
    session.turns.forEach((t, i) => {
      if (t.speaker !== c.speaker) return;
      turns.push({
        group: c.sampleId,
        text: t.text,
        previous: session.turns[i - 1]?.text ?? "",
        position: i / Math.max(1, session.turns.length - 1),
        label: session.observed.has(t.diaId),
      });
      kept.push(produced.has(t.diaId));
    });
  }
}
const labels = turns.map((t) => t.label);
const positives = labels.filter(Boolean).length;
const scores = leaveOneGroupOut(turns, Number(values.seed));
const f3 = (x: number) => x.toFixed(3);
const keptRight = kept.filter((k, i) => k && labels[i]).length;
const keptAll = kept.filter(Boolean).length;
const rulesRecall = keptRight / positives;
const targets = [...new Set([Number(f3(rulesRecall)), 0.8, 0.85, 0.9, 0.95])].sort((a, b) => a - b);
console.log(
  [
    `Turns of LoCoMo (${values.data}): ${turns.length} speaker turns in ${new Set(turns.map((t) => t.group)).size} conversations, ${positives} carry an observation (${f3(positives / turns.length)})`,
    `Learned turn classifier, leave one conversation out: AUC ${f3(rocAuc(scores, labels))}`,
    ...precisionAtRecall(scores, labels, targets).map((p) => `  recall ${f3(p.recall)} → precision ${f3(p.precision)}`),
    `Offline rules, turn by turn (kept: the rules extract a fact from the turn): recall ${f3(rulesRecall)}, precision ${f3(keptRight / keptAll)} (${keptAll} turns kept)`,
  ].join("\n"),
);
