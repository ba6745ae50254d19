/**
 * @module memory/write/password-value
 * Where a password that follows its label ("password: ", "密码是") ends. These were lazy patterns with
 * a lookahead (`[^…]{0,200}?(?=[.!?]{0,8}…)`), which recheck's fuzz checker calls polynomial (the
 * lookahead re-reads the same punctuation from every place the value might end); these scans take
 * the same decisions reading each character a bounded number of times: the regex engine finds the
 * next place a value could stop (single character classes, one read a character), and the few
 * places a run of closing marks could end a value are checked here. Both return the end index of
 * the value that starts at `from`, or -1 when none ends within the limits.
 */

/** A password is at most this long (what the patterns bounded: 200 characters after the first). */
const VALUE_MAX = 200;
/** Closing punctuation, then spaces, allowed between a value and the end of its line. */
const TAIL_MAX = 8;

const CLOSING_QUOTE: Readonly<Record<string, string>> = { '"': '"', "'": "'", "“": "”", "「": "」" };
const OPENING_QUOTE: ReadonlySet<number> = new Set(Object.keys(CLOSING_QUOTE).map((q) => q.charCodeAt(0)));

/**
 * Character classes as sets of UTF-16 code units (every character here is one): reading
 * `text.charCodeAt(i)` allocates nothing, where `text[i]` of a CJK character is a new string each
 * time — the cost that made a text of dense Chinese labels slow.
 */
const codes = (chars: string): ReadonlySet<number> => new Set([...chars].map((c) => c.charCodeAt(0)));
/** Characters a bare value never starts with (either kind), nor contains (after "is"). */
const NOT_IN_WORD = codes(`"'“「，。；、,;`);
const SENTENCE_END = codes(".!?。！？");
const CLAUSE_END = codes(",;，；。、！？");
const WORD_TAIL = codes(".!?。！？,，;；、)）");
const WORD_CLAUSE_END = codes("，。；、,;");
const ASCII_SENTENCE_END = codes(".!?");
const NEWLINE = 10;
/** What `\s` matches (ECMAScript WhiteSpace and LineTerminator). */
const SPACE = codes(
  "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff",
);

/** The code unit at `i` (NaN past the end, which no set holds). */
const at = (text: string, i: number): number => text.charCodeAt(i);
const isSpace = (code: number): boolean => SPACE.has(code);
const isLineSpace = (code: number): boolean => code !== NEWLINE && SPACE.has(code);

/** Index after at most `max` characters of `set` from `from`. */
function skip(text: string, from: number, set: ReadonlySet<number>, max: number): number {
  let i = from;
  while (i < text.length && i - from < max && set.has(at(text, i))) i++;
  return i;
}

/** After ":": the clause ends at sentence punctuation then the line's end, ". " or a clause mark. */
function phraseEndsAt(text: string, end: number): boolean {
  let i = skip(text, end, SENTENCE_END, TAIL_MAX);
  const spaces = i;
  while (i < text.length && i - spaces < TAIL_MAX && at(text, i) !== NEWLINE && isSpace(at(text, i))) i++;
  if (i >= text.length || at(text, i) === NEWLINE) return true;
  const c = at(text, end);
  return (ASCII_SENTENCE_END.has(c) && isSpace(at(text, end + 1))) || CLAUSE_END.has(c);
}

/** After "is"/"was": the word ends at closing punctuation then a space (or the end), or a clause mark. */
function wordEndsAt(text: string, end: number): boolean {
  const i = skip(text, end, WORD_TAIL, TAIL_MAX);
  return i >= text.length || isSpace(at(text, i)) || WORD_CLAUSE_END.has(at(text, end));
}

/**
 * The places a value after ":" stops that a regex finds cheaply: a clause mark or a newline (the
 * characters a phrase never contains, and CLAUSE_END), or ".!?" before a space. The regex engine skips what cannot stop a
 * value far faster than a loop reading each character. The third kind of stop, at most 8 sentence
 * marks then at most 8 spaces then the line's end, lies within 16 characters before a newline or the
 * text's end; phraseEnd checks those few places itself.
 */
const PHRASE_STOP = /[\n,;，；。、！？]|[.!?](?=\s)/g;
/** Characters before a line's end among which a value may still stop (8 marks, 8 spaces). */
const LINE_END_REACH = 2 * TAIL_MAX;
/**
 * Where a value after "is" may end (wordEndsAt) that a regex finds cheaply: a clause mark, or a
 * space (no closing marks before it). A run of at most 8 closing marks before a space is the third
 * kind; wordEnd checks that run itself.
 */
const WORD_STOP = /[，。；、,;]|\s/g;
/** A character a value after "is" never holds (notInWord): the value stops just after it. */
const NOT_WORD_CHAR = /[\s"'“「，。；、,;]/g;

/**
 * The first place at or after a position where `pattern` matches (the text's length when none),
 * remembered: a later position up to that place has the same answer, so positions asked in order
 * read each character once in all. Patterns are module-level; every use is synchronous.
 */
class NextStop {
  private asked = 0;
  private found = -1;
  // Plain fields, not parameter properties: scripts load this file with Node's type stripping.
  private readonly text: string;
  private readonly pattern: RegExp;

  constructor(text: string, pattern: RegExp) {
    this.text = text;
    this.pattern = pattern;
  }

  at(i: number): number {
    if (i >= this.asked && i <= this.found) return this.found;
    this.pattern.lastIndex = i;
    const m = this.pattern.exec(this.text);
    this.pattern.lastIndex = 0;
    this.asked = i;
    this.found = m ? m.index : Math.max(i, this.text.length);
    return this.found;
  }
}

/**
 * The value scans over one text, remembering what they have read: the next place a value could stop
 * (phrase or word) and where each quote character next occurs. Labels packed densely (`密码：密码：…`)
 * each open a scan of up to 200 characters; with these memos a scan that starts before a place an
 * earlier one found gets it at once, so a whole text costs a bounded number of reads per character
 * however many labels it holds. Same answers as a fresh scan at every offset, in any order (a start
 * before the remembered stretch searches again).
 */
export class PasswordValueScanner {
  private readonly phraseStops: NextStop;
  private readonly wordStops: NextStop;
  private readonly notWord: NextStop;
  private readonly next = new Map<string, { at: number; found: number }>();

  // A plain field, not a parameter property: scripts load this file with Node's type stripping.
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
    this.phraseStops = new NextStop(text, PHRASE_STOP);
    this.wordStops = new NextStop(text, WORD_STOP);
    this.notWord = new NextStop(text, NOT_WORD_CHAR);
  }

  /** A password after ":" or "=": quoted, or everything to the end of its clause (a passphrase stays whole). */
  phraseEnd(from: number): number {
    const text = this.text;
    const quoted = this.quotedEnd(from);
    if (quoted !== null) return quoted >= 0 && phraseEndsAt(text, quoted) ? quoted : -1;
    if (from >= text.length || isSpace(at(text, from)) || NOT_IN_WORD.has(at(text, from))) return -1;
    // The first place after the first character where the clause stops: its end, or a mark it may not hold.
    const i = this.phraseStop(from + 1);
    if (i > from + VALUE_MAX + 1) return -1;
    return phraseEndsAt(text, i) ? i : -1;
  }

  /** The first place at or after `start` where a value after "is" may end (the text's length when none). */
  private wordStop(start: number): number {
    const found = this.wordStops.at(start);
    // Closing marks right before `found` may end the word earlier: only that run, at most 8, is read again.
    const text = this.text;
    let run = found;
    const reach = Math.max(start, found - TAIL_MAX);
    while (run > reach && WORD_TAIL.has(at(text, run - 1))) run--;
    for (let i = run; i < found; i++) if (wordEndsAt(text, i)) return i;
    return found;
  }

  /** The first place at or after `start` where a value after ":" stops (the text's length when none). */
  private phraseStop(start: number): number {
    const found = this.phraseStops.at(start);
    // A stop that ends a line starts a run of marks and spaces reaching `found` (at or before the
    // line's end): only that run, at most 16 characters, is read again.
    const text = this.text;
    let run = found;
    const reach = Math.max(start, found - LINE_END_REACH);
    while (run > reach && (SENTENCE_END.has(at(text, run - 1)) || isLineSpace(at(text, run - 1)))) run--;
    for (let i = run; i < found; i++) if (phraseEndsAt(text, i)) return i;
    return found;
  }

  /** A password after "is" / "was" / 是: quoted, or one run of characters up to its closing punctuation. */
  wordEnd(from: number): number {
    const text = this.text;
    const quoted = this.quotedEnd(from);
    if (quoted !== null) return quoted >= 0 && wordEndsAt(text, quoted) ? quoted : -1;
    const start = from + 1;
    // The first place the word ends, or just after a character it may not hold, whichever comes first.
    const afterNotWord = this.notWord.at(start - 1) + 1;
    const i = Math.min(afterNotWord, this.wordStop(start));
    if (i > from + VALUE_MAX || notInWord(text, i - 1)) return -1;
    return i;
  }

  /** The first index of `ch` at or after `at` (-1: none), remembered for later, larger `at`s. */
  private indexOf(ch: string, at: number): number {
    const hit = this.next.get(ch);
    if (hit && hit.at <= at && (hit.found === -1 || hit.found >= at)) return hit.found;
    const found = this.text.indexOf(ch, at);
    this.next.set(ch, { at, found });
    return found;
  }

  /**
   * A quoted value of 1–200 characters on one line, its end after the closing quote (-1: none); null
   * when unquoted. Like a bare value, it must then end its clause.
   */
  private quotedEnd(from: number): number | null {
    // Most values are unquoted: decide on the code unit before reading the character as a string.
    if (!OPENING_QUOTE.has(at(this.text, from))) return null;
    const close = CLOSING_QUOTE[this.text[from]];
    const closeAt = this.indexOf(close, from + 1);
    if (closeAt < 0 || closeAt > from + VALUE_MAX + 1) return -1;
    const newline = this.indexOf("\n", from + 1);
    if (newline >= 0 && newline < closeAt) return -1;
    return closeAt > from + 1 ? closeAt + 1 : -1;
  }
}

/** Whether the character at `i` is one a bare value after "is" never holds (or the text's end). */
const notInWord = (text: string, i: number): boolean =>
  i >= text.length || isSpace(at(text, i)) || NOT_IN_WORD.has(at(text, i));

/** A password after ":" or "=" (one scan; PasswordValueScanner for many over one text). */
export function passwordPhraseEnd(text: string, from: number): number {
  return new PasswordValueScanner(text).phraseEnd(from);
}

/** A password after "is" / "was" / 是 (one scan; PasswordValueScanner for many over one text). */
export function passwordWordEnd(text: string, from: number): number {
  return new PasswordValueScanner(text).wordEnd(from);
}
