/**
 * @module memory/write/redact-secrets
 * Replaces credentials in memory text with `[REDACTED:<kind>]` before anything is stored, embedded
 * or sent to a model. Each rule is a narrow, provider-specific pattern (plus a validator where a
 * pattern alone would hit ordinary text), so numbers, dates and phone numbers survive untouched.
 */
import { isPasswordLookalike } from "./password-lookalike";
import { PasswordValueScanner } from "./password-value";

export interface Redaction {
  kind: string;
  count: number;
}

export interface RedactionResult {
  text: string;
  redactions: Redaction[];
}

/**
 * One redaction rule. `keep` is how many leading capture groups are labels to keep ("password: "),
 * the group after them is the secret. `accept` rejects lookalikes the regex alone cannot rule out.
 */
interface Rule {
  kind: string;
  pattern: RegExp;
  keep?: number;
  accept?: (secret: string, after: string) => boolean;
  /**
   * With this, `pattern` matches only the label; the secret starts where the label ends and ends at the
   * returned index (-1: no secret there, the search goes on from the label's next character).
   */
  valueEnd?: ValueEnd;
}

const hasLetterAndDigit = (s: string): boolean => /[A-Za-z]/.test(s) && /\d/.test(s);

/** Words that follow "password is" in ordinary prose: the sentence talks about a password, it does not contain one. */
const NOT_A_PASSWORD = new Set([
  "a",
  "an",
  "the",
  "not",
  "too",
  "very",
  "so",
  "still",
  "now",
  "also",
  "set",
  "changed",
  "required",
  "needed",
  "incorrect",
  "wrong",
  "correct",
  "right",
  "strong",
  "weak",
  "expired",
  "empty",
  "blank",
  "reset",
  "same",
  "different",
  "missing",
  "saved",
  "stored",
  "secret",
  "hidden",
  "long",
  "short",
  "case",
  "protected",
  "being",
  "什么",
  "多少",
  "啥",
  "错的",
  "对的",
  "正确的",
  "错误的",
  "一样的",
  "过期了",
  "忘了",
  "不对",
]);

function acceptPassword(secret: string, after: string): boolean {
  const bare = secret.replace(/^["'“‘「]|["'”’」]$/g, "");
  // A value an earlier rule already redacted ("password: sk-…") is not counted twice.
  if (bare.length === 0 || bare.startsWith("[REDACTED:") || NOT_A_PASSWORD.has(bare.toLowerCase())) return false;
  return !isPasswordLookalike(secret, after);
}

/** An OpenAI key has a long random run; a slug such as `sk-8-skateboard-shop-2024` has only short words. */
const acceptOpenAiKey = (s: string): boolean => hasLetterAndDigit(s) && /[A-Za-z0-9]{16}/.test(s);

/** Luhn checksum: the only thing that separates a card number from any other 16-digit number. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function acceptCard(candidate: string): boolean {
  const digits = candidate.replace(/[ -]/g, "");
  // Separators must be used consistently ("4111 1111 1111 1111", not "4111-1111 11111111") so
  // that runs of unrelated numbers next to each other are not read as one card.
  const seps = new Set(candidate.match(/[ -]/g) ?? []);
  return digits.length >= 13 && digits.length <= 19 && seps.size <= 1 && passesLuhn(digits);
}

/** Where a value that starts at `from` ends (-1: none), read by the one scanner of the text. */
type ValueEnd = (scan: PasswordValueScanner, from: number, text: string) => number;
const phraseEnd: ValueEnd = (scan, from) => scan.phraseEnd(from);
const wordEnd: ValueEnd = (scan, from) => scan.wordEnd(from);

// "password for the shed", "password for http://192.168.1.1": the object of the preposition is part of the label.
const PW_LABEL_EN = String.raw`\b(?:password|passwd|passphrase|passcode|pwd|pin\s*code|pin\s*number)\b(?:\s+(?:for|to|of|on|at)\s+(?:(?:the|my|our|your|this|that)\s+)?[^\s:=：]+(?:://[^\s"'<>]+)?)?`;
/**
 * After ":", a quoted value also ends where it closes the JSON object, list or call around it
 * (`{"password": "…"}`), which the phrase scan alone does not accept as a clause end.
 */
const passwordAfterColonEnd: ValueEnd = (scan, from, text) => {
  const end = scan.phraseEnd(from);
  const quote = text[from];
  if (end >= 0 || (quote !== '"' && quote !== "'")) return end;
  const close = text.slice(from + 1, from + 202).indexOf(quote);
  const value = text.slice(from + 1, from + 1 + close);
  const next = text[from + close + 2] ?? "";
  return close > 0 && !value.includes("\n") && next !== "" && "}])".includes(next) ? from + close + 2 : -1;
};

const PW_LABEL_ZH = "(?:密码|口令|密碼|pin码|PIN码)";
/**
 * Order matters: specific provider prefixes run before generic ones (sk-ant- before sk-, a JWT
 * before "Bearer <token>"), and a replaced secret no longer matches later rules because
 * `[REDACTED:...]` starts with a character none of them accepts.
 */
const RULES: Rule[] = [
  {
    kind: "private-key",
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g,
  },
  // Hippocampus's own API keys (format: accounts/api-key-format.ts API_KEY_PATTERN).
  { kind: "hippocampus-key", pattern: /\bhc_[0-9a-f]{40}(?![0-9a-f])/g },
  // OAuth tokens this server issues (workers-oauth-provider): `<user>:<16-char grant>:<32-char secret>`,
  // unlabelled; the grant and secret go, the user part stays.
  {
    kind: "oauth-token",
    pattern: /(?<=:)[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])/g,
    accept: hasLetterAndDigit,
  },
  // Starts only where a run of token characters starts: from "\b", every "-eyJ" inside one long
  // run without dots was a new start rescanning the rest of it (quadratic).
  { kind: "jwt", pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  { kind: "openai-key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g, accept: acceptOpenAiKey },
  { kind: "stripe-key", pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { kind: "slack-token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: "aws-access-key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  {
    kind: "aws-secret-key",
    pattern:
      /(aws[_ ]?secret[_ ]?(?:access[_ ]?)?key["']?\s*(?:[:=]|\bis\b)\s*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    keep: 1,
  },
  { kind: "bearer-token", pattern: /(\bBearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/g, keep: 1, accept: hasLetterAndDigit },
  {
    kind: "api-key",
    pattern:
      /(\b(?:api[_ -]?key|access[_ -]?token|secret[_ -]?key|client[_ -]?secret|auth[_ -]?token)["']?\s*(?:[:=]|\bis\b)\s*["']?)([A-Za-z0-9._~+/-]{16,})/gi,
    keep: 1,
    accept: hasLetterAndDigit,
  },
  // The password rules' patterns find the label; the value after it is read by PasswordValueScanner
  // (memory/write/password-value.ts), linear scans of what lazy patterns said.
  {
    kind: "password",
    pattern: new RegExp(String.raw`${PW_LABEL_EN}["']?\s*[:=：]\s*`, "gi"),
    valueEnd: passwordAfterColonEnd,
    accept: acceptPassword,
  },
  {
    kind: "password",
    pattern: new RegExp(String.raw`${PW_LABEL_EN}\s+(?:is now|is|was)\s+`, "gi"),
    valueEnd: wordEnd,
    accept: acceptPassword,
  },
  {
    kind: "password",
    pattern: new RegExp(String.raw`${PW_LABEL_ZH}\s*[:=：]\s*`, "g"),
    valueEnd: phraseEnd,
    accept: acceptPassword,
  },
  {
    kind: "password",
    pattern: new RegExp(String.raw`${PW_LABEL_ZH}\s*(?:是|为|為)\s*`, "g"),
    valueEnd: wordEnd,
    accept: acceptPassword,
  },
  // First digit 2-6 covers every card network's IIN range; 13-19 digits with optional single separators.
  { kind: "card-number", pattern: /(?<![\d-])[2-6]\d{3}(?:[ -]?\d){9,15}(?![\d-])/g, accept: acceptCard },
];

/**
 * How many values one rule asks `accept` about in one text: 24, and one more per 512 characters
 * (39 in a memory at the content limit, 141 in a 60,000-character transcript).
 * Asking costs a microsecond or two (the lookalike checks), so a text packed with labels that each
 * have a value (`密码：x 密码是y …`) would cost that per label. Past the budget a value is redacted
 * without asking (fail closed): a text that dense with password labels is not prose about passwords.
 */
const acceptBudget = (text: string): number => 24 + (text.length >> 9);

/**
 * How many labels one rule reads in one text: 64, and one more per 64 characters (189 in a memory at
 * the content limit, 1,001 in a 60,000-character transcript). Each label costs a regex match and a
 * value scan however short the text between labels (`密码：密码：…` is a label every 3 characters),
 * so past the budget the rest of the text, from that label's value on, is redacted as one secret
 * (fail closed): no prose holds a password label every 64 characters, hundreds of times over.
 */
const labelBudget = (text: string): number => 64 + (text.length >> 6);

/** True when the value at `from` is already a redaction (an earlier rule's, maybe quoted). */
const isRedacted = (text: string, from: number): boolean =>
  text.startsWith("[REDACTED:", from) || text.startsWith("[REDACTED:", from + 1);

/** A rule whose value is read by `valueEnd`: the label is kept, the value redacted when accepted. */
function applyValueRule(text: string, rule: Rule, valueEnd: ValueEnd) {
  // One scanner for the text: dense labels share what earlier scans read (password-value.ts).
  const scan = new PasswordValueScanner(text);
  let budget = acceptBudget(text);
  let labels = labelBudget(text);
  // The rule's own global pattern, its lastIndex driven here and left at 0 (all of this is synchronous).
  const label = rule.pattern;
  label.lastIndex = 0;
  // Pieces joined once at the end: a flat string, where += of thousands of pieces leaves a rope the
  // next rule's regex must flatten first.
  const out: string[] = [];
  const redacted = `[REDACTED:${rule.kind}]`;
  let last = 0;
  for (let m = label.exec(text); m !== null; m = label.exec(text)) {
    const from = m.index + m[0].length;
    if (labels-- === 0) {
      out.push(text.slice(last, from), redacted);
      last = text.length;
      break;
    }
    const end = valueEnd(scan, from, text);
    label.lastIndex = end < 0 ? m.index + 1 : end;
    if (end < 0) continue;
    if (rule.accept && budget > 0) {
      budget--;
      if (!rule.accept(text.slice(from, end), text.slice(end, end + 40))) continue;
    } else if (isRedacted(text, from)) continue;
    out.push(text.slice(last, from), redacted);
    last = end;
  }
  label.lastIndex = 0;
  if (out.length === 0) return { text, count: 0 };
  out.push(text.slice(last));
  return { text: out.join(""), count: (out.length - 1) / 2 };
}

function applyRule(text: string, rule: Rule): { text: string; count: number } {
  if (rule.valueEnd) return applyValueRule(text, rule, rule.valueEnd);
  let count = 0;
  const out = text.replace(rule.pattern, (match: string, ...groups: unknown[]) => {
    const keep = rule.keep ?? 0;
    const labels = groups.slice(0, keep) as string[];
    const secret = keep > 0 ? String(groups[keep] ?? "") : match;
    if (rule.accept && !rule.accept(secret, "")) return match;
    count++;
    return `${labels.join("")}[REDACTED:${rule.kind}]`;
  });
  return { text: out, count };
}

/** Text with every recognised secret redacted (labels, tags, source, external ids, history snapshots). */
export function redactText(text: string): string {
  return redactSecrets(text).text;
}

/** Redacts every secret the rules recognise; `redactions` lists each kind found with its count. */
export function redactSecrets(text: string): RedactionResult {
  const counts = new Map<string, number>();
  let current = text;
  for (const rule of RULES) {
    const { text: next, count } = applyRule(current, rule);
    if (count > 0) counts.set(rule.kind, (counts.get(rule.kind) ?? 0) + count);
    current = next;
  }
  return { text: current, redactions: [...counts].map(([kind, count]) => ({ kind, count })) };
}
