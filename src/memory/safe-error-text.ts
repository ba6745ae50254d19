/**
 * @module memory/safe-error-text
 * What of an error may reach a log line or a cron report. Error messages can carry memory text: a
 * D1 error quotes its bound parameters (`D1_TYPE_ERROR: … for value '<memory text>'`), a provider
 * may echo its input. So only the error's kind is kept — the text up to its second colon ("Error:
 * D1_ERROR"), at most 120 characters — and a stack keeps its frames, never its message line.
 */
const MAX_CHARS = 120;

export function safeErrorText(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const first = text.indexOf(":");
  const second = first < 0 ? -1 : text.indexOf(":", first + 1);
  const kind = second < 0 ? text : text.slice(0, second);
  return kind.split("\n")[0].slice(0, MAX_CHARS);
}

/** A stack trace without its first line (which repeats the message). */
export function safeStack(stack: unknown): string | undefined {
  if (typeof stack !== "string") return undefined;
  return stack
    .split("\n")
    .filter((line) => /^\s+at\s/.test(line))
    .join("\n");
}
