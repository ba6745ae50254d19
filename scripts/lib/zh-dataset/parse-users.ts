/**
 * @module scripts/lib/zh-dataset/parse-users
 * Reads the hand-written Chinese conversation files (users-*.txt) into users, sessions, turns and
 * questions with their evidence. The format, one item a line:
 *   # user <sample id> <name>        a new user
 *   # asked_on <YYYY-MM-DD>          optional: the day the user's questions are asked (relative dates)
 *   @<YYYY-MM-DD> <partner>          a new session (one date, one conversation)
 *   <speaker>：<text>                a turn of the current session
 *   ? <question> => 1,3              a question; evidence = turn numbers of the current session,
 *                                    or full ids (2024-03-02#1) for other sessions
 *   ?[multi-hop] <question> => …     a question with its category named (default: see build-dataset.ts)
 * Blank lines are ignored. Pure: the caller reads the files.
 */

export interface ZhTurn {
  id: string;
  speaker: string;
  text: string;
}

export interface ZhSession {
  date: string;
  partner: string;
  turns: ZhTurn[];
}

export interface ZhQuestion {
  question: string;
  evidence: string[];
  /** The category the line names (`?[multi-hop] …`), or null. */
  category: string | null;
}

export interface ZhUser {
  sampleId: string;
  name: string;
  askedOn: string | null;
  sessions: ZhSession[];
  questions: ZhQuestion[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

class ParseState {
  users: ZhUser[] = [];
  readonly file: string;
  constructor(file: string) {
    this.file = file;
  }
  fail(line: number, rule: string): never {
    throw new Error(`${this.file}:${line}: ${rule}`);
  }
  user(line: number): ZhUser {
    return this.users.at(-1) ?? this.fail(line, "a line before the first '# user'");
  }
  session(line: number): ZhSession {
    return this.user(line).sessions.at(-1) ?? this.fail(line, "a turn or question before the first '@date'");
  }
}

function header(s: ParseState, n: number, text: string): void {
  const [key, value, name] = text.slice(1).trim().split(/\s+/);
  if (key === "user" && value && name)
    s.users.push({ sampleId: value, name, askedOn: null, sessions: [], questions: [] });
  else if (key === "asked_on" && DATE.test(value ?? "")) s.user(n).askedOn = value;
  else s.fail(n, "expected '# user <id> <name>' or '# asked_on <YYYY-MM-DD>'");
}

function session(s: ParseState, n: number, text: string): void {
  const [date, partner] = text.slice(1).trim().split(/\s+/);
  if (!DATE.test(date ?? "") || !partner) s.fail(n, "expected '@YYYY-MM-DD <partner>'");
  const user = s.user(n);
  if (user.sessions.some((x) => x.date === date)) s.fail(n, `two sessions on ${date}`);
  user.sessions.push({ date, partner, turns: [] });
}

/** `?[multi-hop] …`: a category of lower-case words joined by hyphens, in brackets right after the `?`. */
const CATEGORY = /^\?\[([a-z]+(?:-[a-z]+)*)\]/;

function question(s: ParseState, n: number, text: string): void {
  const tag = CATEGORY.exec(text);
  if (!tag && text.startsWith("?[")) s.fail(n, "a category is '?[words-with-hyphens]'");
  const [q, refs] = text.slice(tag ? tag[0].length : 1).split("=>");
  const current = s.session(n);
  const evidence = (refs ?? "")
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => (/^\d+$/.test(r) ? `${current.date}#${r}` : r));
  if (!q?.trim() || evidence.length === 0) s.fail(n, "expected '? <question> => <turn numbers>'");
  s.user(n).questions.push({ question: q.trim(), evidence, category: tag ? tag[1] : null });
}

function turn(s: ParseState, n: number, text: string): void {
  const colon = text.indexOf("：");
  if (colon < 1 || colon > 12) s.fail(n, "a turn is '<speaker>：<text>' with a full-width colon");
  const current = s.session(n);
  current.turns.push({
    id: `${current.date}#${current.turns.length + 1}`,
    speaker: text.slice(0, colon),
    text: text.slice(colon + 1).trim(),
  });
}

/** Users of one file; throws `file:line: rule` on the first malformed line or unknown evidence id. */
export function parseUsers(file: string, source: string): ZhUser[] {
  const s = new ParseState(file);
  source.split("\n").forEach((raw, i) => {
    const text = raw.trim();
    if (text === "") return;
    if (text.startsWith("#")) header(s, i + 1, text);
    else if (text.startsWith("@")) session(s, i + 1, text);
    else if (text.startsWith("?")) question(s, i + 1, text);
    else turn(s, i + 1, text);
  });
  for (const user of s.users) {
    const ids = new Set(user.sessions.flatMap((x) => x.turns.map((t) => t.id)));
    const missing = user.questions.flatMap((q) => q.evidence).filter((id) => !ids.has(id));
    if (missing.length > 0) throw new Error(`${file}: ${user.sampleId}: unknown evidence ${missing.join(", ")}`);
  }
  return s.users;
}
