/**
 * @module memory/write/password-lookalike
 * Tells a value that follows a password label ("password: ", "password is", 「密码是」) from what only
 * looks like one: prose about the password ("is stored in the vault", 「至少8位」), code that names it
 * (`req.body.password`, `os.environ["PW"]`, `string;`), placeholders (`${DB_PASSWORD}`, `<password>`,
 * `********`), paths and URLs (`http://192.168.1.1`, `/home/nova`). Used by redact-secrets' password
 * rules: a lookalike is left as it is, anything else after the label is redacted.
 */

/** Single words that follow "password is" / "password:" in prose (the whole value, lower-cased). */
const PROSE_WORDS = new Set(
  (
    "a an the not too very so still now also set changed required needed incorrect wrong correct right strong weak " +
    "expired empty blank reset same different missing saved stored secret hidden long short case protected being " +
    "none n/a na optional unknown unset tbd todo in on at under with from for by inside behind of to into " +
    "written printed kept known shown given taken stolen forgotten sent built made shared managed generated " +
    "encrypted hashed rotated updated locked easy hard simple complicated longer shorter stronger weaker safe " +
    "unsafe probably definitely basically just only really actually usually always never maybe mostly pretty " +
    "quite literally obviously my your his her our their its this that these those some any no all each " +
    "see ask check use mine yours ours theirs"
  ).split(" "),
);

/** Words that open a description rather than a passphrase ("at least 12 characters", "see the vault"). */
const PROSE_OPENERS = new Set(
  (
    "a an the at see ask check use in on under with from for by inside behind same none not no must should " +
    "needs need min minimum max maximum required optional is was are will can my your our his her their its " +
    "this that any every one two three four five six seven eight nine ten up between"
  ).split(" "),
);

/** Words that make a phrase a description of a password's shape ("4 digits", "four to six characters"). */
const SHAPE_WORDS = /\b(?:digits?|characters?|chars?|letters?|symbols?|numbers?)\b/i;

/** Type names and empty values code writes after `password:` / `password =`. */
const CODE_VALUES = new Set(
  "string str number int integer bool boolean none null nil undefined true false object any bytes text varchar char".split(
    " ",
  ),
);

/** Roots of member paths that read a value in code (`req.body.password`, `settings.PASSWORD`). */
const CODE_ROOTS = new Set(
  "req request res response os process env config conf settings self this user users form ctx c args params options opts body data input secrets vault values cfg props state app".split(
    " ",
  ),
);

/** Starts that open a Chinese sentence about a password, not a password (「至少8位」「写在便签上」「请向管理员索取」). */
const ZH_PROSE_OPENERS = [..."在写放存记至不最必需要请见同无空已错对忘过你我他她您和跟", "一样", "什么", "多少", "啥"];
/** Endings of a Chinese clause about a password (「…保存的」「…改了」「…吗」). */
const ZH_PROSE_ENDINGS = [..."的了吗呢吧啊呀着过"];

const HAN = /\p{Script=Han}/u;

function stripQuotes(value: string): string {
  return value.replace(/^["'“‘「]/, "").replace(/["'”’」]$/, "");
}

/** Code, a placeholder, a mask, a path or a URL: what a program or a template writes after the label. */
function looksLikeCode(bare: string): boolean {
  if (isPlaceholderStart(bare)) return true;
  if (/^(?:await|new|yield|typeof)\s/.test(bare)) return true;
  const word = /^[A-Za-z_][\w]*/.exec(bare)?.[0] ?? "";
  if (CODE_VALUES.has(word.toLowerCase()) && !/^[\w]/.test(bare.slice(word.length))) return true;
  if (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*\s*[([]/.test(bare)) return true;
  if (word && CODE_ROOTS.has(word) && bare[word.length] === ".") return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(bare) || bare.startsWith("//")) return true;
  if (/^(?:\.{1,2}|~)?\/[\w.-]+(?:\/[\w.-]*)*$/.test(bare)) return true;
  return /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(bare) && /(?:^|_)(?:YOUR|HERE|PASSWORD|PASS|PW|PWD)(?:_|$)/.test(bare);
}

/** `${…}`, `$VAR`, `$(…)`, `{{…}}`, `{…}`, `%(…)s`, `<…>`, `(…prose)`, `!vault`, `****`, `xxxxxx`, `[REDACTED]`. */
function isPlaceholderStart(bare: string): boolean {
  if (/^\$(?:\{|\(|[A-Za-z_])/.test(bare) || bare.startsWith("{{") || bare.startsWith("%(")) return true;
  if (/^<[^<>\n]*>/.test(bare) || bare.startsWith("!vault") || bare[0] === "[" || bare[0] === "{") return true;
  if (/^\([a-z]/.test(bare)) return true;
  return /^([*•x\-_.·])\1{2,}$/i.test(bare) || /^your[_-]?(?:password|pass|pw)/i.test(bare);
}

/** Prose about a password: a known word, a description, a lower-case participle that the sentence goes on from. */
function looksLikeProse(bare: string, after: string): boolean {
  const lower = bare.toLowerCase();
  if (PROSE_WORDS.has(lower)) return true;
  const words = lower.split(/\s+/);
  if (words.length > 1 && (PROSE_OPENERS.has(words[0]) || SHAPE_WORDS.test(bare))) return true;
  const goesOn = /^ +[a-z]/.test(after);
  return words.length === 1 && goesOn && /^[a-z]{3,}(?:ed|ing|ly|en)$/.test(bare);
}

function looksLikeChineseProse(bare: string): boolean {
  if (!HAN.test(bare[0] ?? "")) return false;
  return ZH_PROSE_OPENERS.some((w) => bare.startsWith(w)) || ZH_PROSE_ENDINGS.some((w) => bare.endsWith(w));
}

/**
 * True when `value` (what follows a password label, up to where its rule says it ends) is not a
 * password but prose, code or a placeholder; `after` is the text that follows the value.
 */
export function isPasswordLookalike(value: string, after: string): boolean {
  const bare = stripQuotes(value.trim());
  if (bare.length === 0 || bare.startsWith("[REDACTED:")) return true;
  return looksLikeCode(bare) || looksLikeProse(bare, after) || looksLikeChineseProse(bare);
}
