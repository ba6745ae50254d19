/**
 * @module memory/write/password-value
 * Where a password that follows its label ("password: ", "密码是") ends. These were lazy patterns with
 * a lookahead (`[^…]{0,200}?(?=[.!?]{0,8}…)`), which recheck's fuzz checker calls polynomial (the
 * lookahead re-reads the same punctuation from every place the value might end); these scans take
 * the same decisions reading each character a bounded number of times. Both
 * return the end index of the value that starts at `from`, or -1 when none ends within the limits.
 */

/** A password is at most this long (what the patterns bounded: 200 characters after the first). */
const VALUE_MAX = 200;
/** Closing punctuation, then spaces, allowed between a value and the end of its line. */
const TAIL_MAX = 8;

const CLOSING_QUOTE: Readonly<Record<string, string>> = { '"': '"', "'": "'", "“": "”", "「": "」" };
/** Characters a bare value never starts with (either kind), nor contains (after "is"). */
const NOT_IN_WORD = new Set(`"'“「，。；、,;`);
/** Characters a phrase after ":" never contains: a clause ends there. */
const NOT_IN_PHRASE = new Set("\n,;，；。、");
const SENTENCE_END = new Set(".!?。！？");
const CLAUSE_END = new Set(",;，；。、！？");
const WORD_TAIL = new Set(".!?。！？,，;；、)）");
const WORD_CLAUSE_END = new Set("，。；、,;");

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/** Index after at most `max` characters of `set` from `at`. */
function skip(text: string, at: number, set: ReadonlySet<string>, max: number): number {
  let i = at;
  while (i < text.length && i - at < max && set.has(text[i])) i++;
  return i;
}

/**
 * A quoted value of 1–200 characters on one line, its end after the closing quote (-1: none); null
 * when unquoted. Like a bare value, it must then end its clause.
 */
function quotedEnd(text: string, from: number): number | null {
  const close = CLOSING_QUOTE[text[from]];
  if (close === undefined) return null;
  for (let i = from + 1; i < text.length && i <= from + VALUE_MAX + 1; i++) {
    if (text[i] === "\n") return -1;
    if (text[i] === close) return i > from + 1 ? i + 1 : -1;
  }
  return -1;
}

/** After ":": the clause ends at sentence punctuation then the line's end, ". " or a clause mark. */
function phraseEndsAt(text: string, at: number): boolean {
  let i = skip(text, at, SENTENCE_END, TAIL_MAX);
  const spaces = i;
  while (i < text.length && i - spaces < TAIL_MAX && text[i] !== "\n" && isSpace(text[i])) i++;
  if (i >= text.length || text[i] === "\n") return true;
  const c = text[at];
  return (".!?".includes(c) && isSpace(text[at + 1])) || CLAUSE_END.has(c);
}

/** After "is"/"was": the word ends at closing punctuation then a space (or the end), or a clause mark. */
function wordEndsAt(text: string, at: number): boolean {
  const i = skip(text, at, WORD_TAIL, TAIL_MAX);
  return i >= text.length || isSpace(text[i]) || WORD_CLAUSE_END.has(text[at]);
}

/** A password after ":" or "=": quoted, or everything to the end of its clause (a passphrase stays whole). */
export function passwordPhraseEnd(text: string, from: number): number {
  const quoted = quotedEnd(text, from);
  if (quoted !== null) return quoted >= 0 && phraseEndsAt(text, quoted) ? quoted : -1;
  if (from >= text.length || isSpace(text[from]) || NOT_IN_WORD.has(text[from])) return -1;
  for (let end = from + 1; end <= from + VALUE_MAX + 1; end++) {
    if (phraseEndsAt(text, end)) return end;
    if (end >= text.length || NOT_IN_PHRASE.has(text[end])) return -1;
  }
  return -1;
}

/** A password after "is" / "was" / 是: quoted, or one run of characters up to its closing punctuation. */
export function passwordWordEnd(text: string, from: number): number {
  const quoted = quotedEnd(text, from);
  if (quoted !== null) return quoted >= 0 && wordEndsAt(text, quoted) ? quoted : -1;
  for (let end = from + 1; end <= from + VALUE_MAX; end++) {
    const c = text[end - 1];
    if (c === undefined || isSpace(c) || NOT_IN_WORD.has(c)) return -1;
    if (wordEndsAt(text, end)) return end;
  }
  return -1;
}
