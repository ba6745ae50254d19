/**
 * @module memory/write/transcript
 * A conversation as plain text → messages with roles, and who in it is the user. Transcripts name
 * their speakers in many ways ("User:", 「用户：」, "ChatGPT:", "Claude:", a persona's or a friend's
 * name), so a line counts as a new turn when it starts with a speaker label, and each label gets a
 * role from, in order: the caller's `user_name` / `assistant_name`, the table of known role labels,
 * and elimination (one unknown name beside a known assistant is the user). Unknown speakers are
 * never the user by default: their lines get the role "other", and nobody's words but the user's
 * become memories. When the user cannot be told, the caller is asked for `user_name`.
 */
import { invalidInput } from "../errors";
import { SPEAKER_NAME } from "../text/speaker";

export interface TranscriptMessage {
  role: string;
  content: string;
}

export interface SpeakerNames {
  /** The label of the user's lines ("Caroline", "小林"), when the transcript does not say User:. */
  userName?: string;
  /** The label of the assistant's lines ("Nova"), when it is not a known assistant name. */
  assistantName?: string;
}

/** The role of a speaker nobody said was the user or the assistant: never mined for memories. */
export const OTHER_ROLE = "other";

const ROLES: Record<string, string> = {
  user: "user",
  human: "user",
  me: "user",
  用户: "user",
  我: "user",
  assistant: "assistant",
  ai: "assistant",
  bot: "assistant",
  model: "assistant",
  chatgpt: "assistant",
  gpt: "assistant",
  "gpt-4": "assistant",
  "gpt-4o": "assistant",
  claude: "assistant",
  gemini: "assistant",
  copilot: "assistant",
  bard: "assistant",
  llama: "assistant",
  deepseek: "assistant",
  qwen: "assistant",
  kimi: "assistant",
  豆包: "assistant",
  通义千问: "assistant",
  文心一言: "assistant",
  智能助手: "assistant",
  助手: "assistant",
  助理: "assistant",
  机器人: "assistant",
  system: "system",
  系统: "system",
  tool: "tool",
  工具: "tool",
};

// A label is a speaker name (memory/text/speaker). After an ASCII colon a space (or the line's end)
// must follow, so "https://…" and "10:30" are not turns; a known role label may be glued to its
// text ("Human:I'm Nova"); 「：」 needs no space. A lower-case word ("note: …") is only a label
// when it is a known role or the caller's user or assistant name.
const TURN = new RegExp(String.raw`^[ \t]*(${SPEAKER_NAME})[ \t]*(?:(：)|:(?=[ \t]|$)|(:))[ \t]*(.*)$`, "u");
const LOWER_HANDLE = /^\p{Ll}/u;

/** Lower-case, NFC and trimmed: how labels and names are compared. */
function labelKey(label: string): string {
  return label.normalize("NFC").trim().toLowerCase();
}

/** The canonical role ("user", "assistant", …) of a known label in either language; others as given. */
export function normaliseRole(role: string): string {
  const key = labelKey(role);
  return ROLES[key] ?? key;
}

interface RawTurn {
  label: string;
  content: string;
}

function labelOf(line: string, names: SpeakerNames): { label: string; text: string } | null {
  const m = TURN.exec(line);
  if (!m) return null;
  const label = m[1].trim();
  const known = knownRole(labelKey(label), names) !== undefined;
  // "Name:text" with no space, or a lower-case word, is only a turn for a known label.
  if ((m[3] !== undefined || LOWER_HANDLE.test(label)) && !known) return null;
  return { label, text: m[4] };
}

function splitTurns(text: string, names: SpeakerNames): RawTurn[] {
  const turns: RawTurn[] = [];
  for (const line of text.split(/\r?\n/)) {
    const turn = labelOf(line, names);
    if (turn) turns.push({ label: turn.label, content: turn.text });
    else if (turns.length > 0) turns[turns.length - 1].content += `\n${line}`;
  }
  return turns;
}

/** Known labels → their role; the caller's names first. */
function knownRole(key: string, names: SpeakerNames): string | undefined {
  if (names.userName !== undefined && key === labelKey(names.userName)) return "user";
  if (names.assistantName !== undefined && key === labelKey(names.assistantName)) return "assistant";
  return ROLES[key];
}

/**
 * A role for every distinct label. Unknown labels are "other", except the one unknown speaker of a
 * transcript whose other side is a known assistant and which has no user yet (ChatGPT exports).
 */
export function assignRoles(labels: string[], names: SpeakerNames = {}): Map<string, string> {
  const keys = [...new Set(labels.map(labelKey))];
  const roles = new Map<string, string>();
  for (const key of keys) {
    const role = knownRole(key, names);
    if (role !== undefined) roles.set(key, role);
  }
  const unknown = keys.filter((k) => !roles.has(k));
  const hasUser = [...roles.values()].includes("user");
  if (names.userName !== undefined && !keys.includes(labelKey(names.userName)))
    throw invalidInput("user_name", `no turn starts with "${names.userName}:" in the transcript`);
  if (!hasUser && unknown.length === 1) roles.set(unknown[0], "user");
  else if (!hasUser && unknown.length > 1) {
    const shown = labels.filter((l, i) => labels.findIndex((x) => labelKey(x) === labelKey(l)) === i).slice(0, 5);
    throw invalidInput("user_name", `the transcript has several speakers (${shown.join(", ")}): say which is the user`);
  }
  for (const key of unknown) if (!roles.has(key)) roles.set(key, OTHER_ROLE);
  return roles;
}

/**
 * Lines starting with a speaker label begin a turn; a line without one continues the turn above.
 * Text with no label at all is one user message: whoever sends an unlabelled text is passing on
 * what the user said. Throws invalid_input on `user_name` when the user cannot be told.
 */
export function parseTranscript(text: string, names: SpeakerNames = {}): TranscriptMessage[] {
  const turns = splitTurns(text, names);
  if (turns.length === 0) return [{ role: "user", content: text.trim() }];
  const roles = assignRoles(
    turns.map((t) => t.label),
    names,
  );
  return turns
    .map((t) => ({ role: roles.get(labelKey(t.label)) ?? OTHER_ROLE, content: t.content.trim() }))
    .filter((m) => m.content.length > 0);
}

/** Messages given with roles: the same names and labels apply ("Caroline" as a role is the user when named so). */
export function assignMessageRoles(messages: TranscriptMessage[], names: SpeakerNames = {}): TranscriptMessage[] {
  const roles = assignRoles(
    messages.map((m) => m.role),
    names,
  );
  return messages
    .map((m) => ({ role: roles.get(labelKey(m.role)) ?? OTHER_ROLE, content: m.content.trim() }))
    .filter((m) => m.content.length > 0);
}
