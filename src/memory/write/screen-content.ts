/**
 * @module memory/write/screen-content
 * The gate before anything is stored or embedded: confidence floor, secret redaction, value filter,
 * prompt-injection quarantine. Returns the text to store and what happened to it.
 */

import { detectInjection, type InjectionVerdict } from "./injection-detector";
import { redactSecrets } from "./redact-secrets";
import { assessValue } from "./value-filter";

export type Screened =
  | { verdict: "rejected"; reason: string; redactions: { kind: string; count: number }[] }
  | { verdict: "store" | "quarantine"; text: string; reason?: string; redactions: { kind: string; count: number }[] };

/**
 * Labels (category, tags, source) are screened like content for injection: they reach the model in
 * every rendering too. The first suspicious one decides.
 */
export function screenLabels(labels: readonly (string | null | undefined)[]): InjectionVerdict {
  for (const label of labels) {
    if (!label) continue;
    const verdict = detectInjection(label);
    if (verdict.suspicious) return verdict;
  }
  return { suspicious: false };
}

export function screenContent(
  content: string,
  confidence: number,
  confidenceFloor: number,
  labels: readonly (string | null | undefined)[] = [],
): Screened {
  if (confidence < confidenceFloor) {
    return {
      verdict: "rejected",
      reason: `confidence ${confidence} is below the floor ${confidenceFloor}`,
      redactions: [],
    };
  }
  const { text, redactions } = redactSecrets(content);
  const value = assessValue(text);
  if (!value.keep) return { verdict: "rejected", reason: value.reason, redactions };
  const found = detectInjection(text);
  const injection = found.suspicious ? found : screenLabels(labels);
  if (injection.suspicious) return { verdict: "quarantine", text, reason: injection.reason, redactions };
  return { verdict: "store", text, redactions };
}
