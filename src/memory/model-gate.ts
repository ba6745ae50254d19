/**
 * @module memory/model-gate
 * The domain's gate for what a model answers, as screen-content is for what a user writes: a model
 * or an upstream is input too. Vectors are used only when there is one per text, each of the
 * configured dimension and every component finite (a NaN would reach recall's scores). A model's
 * text that is stored or shown (a long memory's summary, which becomes the search/fetch title) is
 * redacted like user text and, when the injection detector flags it, dropped: the memory keeps no
 * summary and is shown by its own (screened) words. A conflict decision's reason reaches a client
 * only as one of the project's own codes, never as the model's free text. Pure.
 */
import type { ConflictDecision } from "./ports";
import { detectInjection } from "./write/injection-detector";
import { type Redaction, redactSecrets } from "./write/redact-secrets";

/** Every component a finite number (the providers also refuse values past float32 before normalising). */
export function finiteVector(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return false;
  return true;
}

/** What is wrong with a model's vectors for `count` texts of `dims` dimensions, or null when they are usable. */
export function vectorsFault(vectors: readonly unknown[], count: number, dims: number): string | null {
  if (vectors.length !== count) return `${vectors.length} vectors for ${count} texts`;
  for (const v of vectors) {
    if (!(v instanceof Float32Array)) return "a vector that is not a Float32Array";
    if (v.length !== dims) return `a ${v.length}-dimension vector (configured: ${dims})`;
    if (!finiteVector(v)) return "a vector with a component that is not finite";
  }
  return null;
}

export type ScreenedModelText =
  | { keep: true; text: string; redactions: Redaction[] }
  | { keep: false; reason: string; redactions: Redaction[] };

/** A model's text before it is stored or shown: secrets redacted; dropped when it addresses a model. */
export function screenModelText(text: string): ScreenedModelText {
  const { text: redacted, redactions } = redactSecrets(text);
  const injection = detectInjection(redacted);
  if (injection.suspicious) return { keep: false, reason: injection.reason, redactions };
  return { keep: true, text: redacted, redactions };
}

/** The codes a model's conflict decision is reported by (the model's own words never are). */
export const MODEL_CONFLICT_REASONS = ["llm: supersedes", "llm: duplicate", "llm: no conflict"] as const;

/**
 * The rules' reasons: `rules: <rule-id> [(<attribute>)] #<handle>; …`, or `rules: no conflict` /
 * `rules: no candidates`. The attribute may hold the user's (screened) words, so a reason of this
 * shape is still checked by the injection detector.
 */
const RULE = String.raw`[a-z]+(?:-[a-z]+)* (?:\([^()\n]{1,60}\) )?#\d{1,3}`;
const RULES_REASON = new RegExp(String.raw`^rules: (?:no conflict|no candidates|${RULE}(?:; ${RULE}){0,49})$`);
const MODEL_REASON = /^llm: (?:supersedes|duplicate|no conflict)(?: #\d{1,3}(?:, #\d{1,3}){0,49})?$/;

/** The enumerated code for a model's decision: what it decided and on which handles. */
export function modelConflictReason(decision: Pick<ConflictDecision, "supersedes" | "duplicateOf">): string {
  if (decision.duplicateOf !== null) return `llm: duplicate #${decision.duplicateOf}`;
  if (decision.supersedes.length > 0) return `llm: supersedes ${decision.supersedes.map((h) => `#${h}`).join(", ")}`;
  return "llm: no conflict";
}

/**
 * The reason a decision may carry to a client and into history: the rules' own reason or a model's
 * code as they are, anything else (free text from whatever Llm answered) replaced by the code.
 */
export function gateConflictReason(decision: ConflictDecision): string {
  const reason = decision.reason;
  if (MODEL_REASON.test(reason)) return reason;
  if (reason.length <= 4000 && RULES_REASON.test(reason) && !detectInjection(reason).suspicious) return reason;
  return modelConflictReason(decision);
}
