/**
 * @module memory/write/injection-detector
 * Flags prompt-injection text so the write pipeline can quarantine it: a stored memory is later
 * injected into some agent's context, so text that addresses the model ("ignore previous
 * instructions", fake role headers, tool-call payloads) must never come back as a normal memory.
 * Every pattern needs an imperative aimed at the model or a chat-format marker, so ordinary
 * sentences that merely share a word ("I ignore spam emails", "I'm a system administrator") pass.
 */

export type InjectionVerdict = { suspicious: false } | { suspicious: true; reason: string };

interface InjectionRule {
  /** Stable id reported as the reason (docs/write-rules.md lists them). */
  id: string;
  pattern: RegExp;
  /** A further check on a match, for what one linear pattern cannot say. */
  confirm?: (text: string, match: RegExpExecArray) => boolean;
}

// Spaces and tabs but no line terminator: with the `m` flag every \r, \n, U+2028 and U+2029 starts a
// line, so a `^\s*` would rescan a run of them from each one (quadratic).
const HSPACE = String.raw`[^\S\n\r\u2028\u2029]`;

/** "I act as the admin of our club" is a fact about the writer, not an attempt to recast the model. */
const SELF_SUBJECT = /\b(?:i|we|they|he|she)$/i;
const HABIT = /\b(?:also|sometimes|often|usually)$/i;
/** How far back the subject is looked for; past it, a match is flagged (the safe side). */
const SUBJECT_WINDOW = 64;

/** Whether the words before `at` are "I", "we", … (optionally "I also", "she often"), then space. */
function selfDescribed(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - SUBJECT_WINDOW), at);
  let rest = before.trimEnd();
  if (rest.length === before.length) return false;
  if (SELF_SUBJECT.test(rest)) return true;
  const habit = HABIT.exec(rest);
  if (!habit) return false;
  const head = rest.slice(0, habit.index);
  rest = head.trimEnd();
  return rest.length < head.length && SELF_SUBJECT.test(rest);
}

/** A tool-call object: "arguments"/"parameters" inside braces, and a "name" key somewhere after it. */
const ARGUMENTS_KEY = /\{[^{}]*?"(?:arguments|parameters)"\s*:/i;
const NAME_KEY = /"name"\s*:\s*"/i;
/** A tool-call object's "name" key, read to its string value's opening quote. */
const NAME_FIRST = /\{[^{}]*?"name"\s*:\s*"/gi;
const ARGUMENTS_AFTER_NAME = /"(?:arguments|parameters|input)"\s*:/i;

/**
 * After a `{…"name": "` match: the value closes at the next quote, and an "arguments" / "parameters" /
 * "input" key follows before the next brace. This is what `"[^"]*"[^{}]*"(?:arguments…)"\s*:` said
 * in one pattern, which the automaton checker proved quadratic on a run of `"name":""`.
 * The earliest "name" after a brace leaves the most text after it, so trying it alone decides.
 */
function argumentsAfterName(text: string, m: RegExpExecArray): boolean {
  const close = text.indexOf('"', m.index + m[0].length);
  if (close < 0) return false;
  let end = close + 1;
  while (end < text.length && text[end] !== "{" && text[end] !== "}") end++;
  return ARGUMENTS_AFTER_NAME.test(text.slice(close + 1, end));
}

/** A tag that opens or closes a tool call, `>` anywhere after it (`[^>]*>` rescanned the rest from each tag). */
const TOOL_TAG = /<\/?(?:tool_call|tool_use|function_call|function_calls|invoke|tool_result)\b/i;

const EN_VERB = String.raw`(?:ignore|disregard|forget|skip|override|bypass|drop)`;
const EN_SCOPE = String.raw`(?:previous|prior|above|earlier|preceding|foregoing|former|original|initial|system|developer|existing)`;
const EN_TARGET = String.raw`(?:instructions?|prompts?|rules?|directions?|guidelines?|directives?|commands?|messages?|context|constraints?)`;
/** Narrower targets after "all"/"your": "ignore all messages from my boss" is a habit, not an attack. */
const EN_TARGET_OWN = String.raw`(?:instructions|prompts?|rules|guidelines|directives|programming)`;
const EN_FILL = String.raw`(?:(?:all|any|the|your|my|of|these|those|every|everything|and)\s+)*`;

const ZH_SCOPE = "(?:之前|以前|先前|此前|上面|以上|前面|上述|原来|原有|原始|最初|所有|全部|一切|任何|你的|系统)";
const ZH_TARGET = "(?:指令|指示|提示词|提示|规则|设定|命令|要求|限制)";

const RULES: InjectionRule[] = [
  // "Ignore all previous instructions", "disregard your system prompt", "forget all instructions".
  {
    id: "ignore-instructions",
    pattern: new RegExp(String.raw`\b${EN_VERB}\s+${EN_FILL}${EN_SCOPE}\s+(?:\w+\s+)?${EN_TARGET}\b`, "i"),
  },
  {
    id: "ignore-instructions",
    pattern: new RegExp(String.raw`\b${EN_VERB}\s+(?:(?:all|your|any|of)\s+)+${EN_TARGET_OWN}\b`, "i"),
  },
  {
    id: "ignore-instructions",
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+|anything\s+)?(?:of\s+)?(?:the\s+)?(?:above|foregoing|said\s+before|you\s+were\s+told)\b/i,
  },
  {
    id: "ignore-instructions",
    pattern: new RegExp(
      `(?:忽略|无视|忽视|不要理会|不要管|别管|忘记|忘掉|跳过|覆盖)(?:掉)?(?:你)?${ZH_SCOPE}(?:的)?(?:所有|全部|一切)?(?:的)?${ZH_TARGET}`,
    ),
  },
  // Attempts to replace the model's role: "you are now DAN", "act as the system", "developer mode".
  { id: "role-override", pattern: /\byou\s+are\s+now\b|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|shall)\b/i },
  // People may describe themselves: "I act as the admin of our club" is a fact (selfDescribed).
  {
    id: "role-override",
    pattern:
      /\b(?:act|behave|respond|pretend|function)\s+(?:as|like)\s+(?:if\s+you\s+were\s+)?(?:an?\s+|the\s+)?(?:system|administrator|admin|root|developer|jailbroken|unrestricted|unfiltered|DAN)\b/gi,
    confirm: (text, m) => !selfDescribed(text, m.index),
  },
  {
    id: "role-override",
    pattern: /\b(?:enable|enter|activate|switch\s+to)\s+(?:developer|god|jailbreak|DAN)\s+mode\b/i,
  },
  {
    id: "role-override",
    pattern:
      /你现在(?:是(?!不是|否)|扮演|成为|变成|作为)|从现在(?:开始|起)[，,]?\s*你(?:是|将|要|必须|只能)|扮演(?:一个)?(?:系统|管理员|开发者|超级用户)|(?:进入|开启|启用)(?:开发者|越狱|上帝)模式/,
  },
  // Exfiltration of the hidden prompt: "reveal your system prompt", 「输出你的系统提示词」.
  {
    id: "reveal-prompt",
    pattern:
      /\b(?:reveal|print|show|display|output|repeat|leak|dump|expose|disclose|tell\s+me|give\s+me|write\s+out|what\s+(?:is|are|was|were))\s+(?:me\s+)?(?:your|the)\s+(?:(?:full|entire|original|hidden|initial|secret|exact|complete)\s+)*(?:system\s+(?:prompt|message|instructions?)|hidden\s+(?:prompt|instructions?)|initial\s+(?:prompt|instructions?)|developer\s+(?:prompt|message))\b/i,
  },
  {
    id: "reveal-prompt",
    pattern:
      /\b(?:reveal|print|show|output|repeat|leak|dump|disclose)\s+(?:me\s+)?your\s+(?:(?:full|entire|original|hidden|initial|secret|exact)\s+)*(?:instructions|prompt|rules)\b/i,
  },
  {
    id: "reveal-prompt",
    pattern:
      /(?:输出|显示|打印|告诉我|泄露|展示|透露|给我看|复述|重复|说出)(?:一下)?(?:你的|你)?(?:完整的?|全部的?|原始的?|隐藏的?|初始的?)?(?:系统提示词?|系统指令|系统消息|系统设定|提示词|初始指令|内部指令|隐藏指令)/,
  },
  // Chat-template markers and role headers that try to open a new system turn inside the text.
  {
    id: "fake-role-header",
    pattern: new RegExp(
      String.raw`^${HSPACE}*(?:system|developer)(?:${HSPACE}+(?:prompt|message|instructions?))?${HSPACE}*[:：]`,
      "im",
    ),
  },
  {
    id: "fake-role-header",
    pattern: new RegExp(String.raw`^${HSPACE}*(?:系统|系统提示|系统消息)${HSPACE}*[:：]`, "m"),
  },
  {
    id: "fake-role-header",
    pattern: /<\|(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id)\|>/i,
  },
  {
    id: "fake-role-header",
    pattern: new RegExp(String.raw`^${HSPACE}*#{1,6}${HSPACE}*(?:system|new\s+instructions?|instructions?)\b`, "im"),
  },
  { id: "fake-role-header", pattern: /\[\/?INST\]|<<\/?SYS>>|<\/?(?:system|system_prompt|instructions)>/i },
  // Tool-call payloads that could be replayed as if the model had issued them.
  { id: "tool-call-payload", pattern: /"(?:tool_calls|function_call|tool_use)"\s*:/i },
  { id: "tool-call-payload", pattern: NAME_FIRST, confirm: argumentsAfterName },
  // The earliest "arguments" key leaves the longest text after it, so one lookup for "name" there
  // decides what `\{…"arguments":[\s\S]*?"name"` did, without rescanning from every brace.
  {
    id: "tool-call-payload",
    pattern: ARGUMENTS_KEY,
    confirm: (text, m) => NAME_KEY.test(text.slice(m.index + m[0].length)),
  },
  // The first tag decides: a `>` after a later tag is also after the first.
  { id: "tool-call-payload", pattern: TOOL_TAG, confirm: (text, m) => text.includes(">", m.index + m[0].length) },
];

function normalise(text: string): string {
  // NFKC folds full-width letters (ｉｇｎｏｒｅ) and compatibility forms; zero-width characters are
  // removed because they are a cheap way to split a keyword past a regex.
  return text.normalize("NFKC").replace(/[\u200B-\u200D\u2060\uFEFF]/g, "");
}

function matches(rule: InjectionRule, text: string): boolean {
  if (!rule.confirm) return rule.pattern.test(text);
  if (!rule.pattern.global) {
    const m = rule.pattern.exec(text);
    return m !== null && rule.confirm(text, m);
  }
  for (const m of text.matchAll(rule.pattern)) if (rule.confirm(text, m)) return true;
  return false;
}

/** Returns the first matching rule's id as the reason, or `suspicious: false`. */
export function detectInjection(text: string): InjectionVerdict {
  const normalised = normalise(text);
  for (const rule of RULES) if (matches(rule, normalised)) return { suspicious: true, reason: rule.id };
  return { suspicious: false };
}
