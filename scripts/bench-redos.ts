/**
 * @module scripts/bench-redos
 * The catastrophic-backtracking inputs of the ReDoS review through the pure text code, in plain Node:
 *   npm run bench:redos [-- --repeat 32000]
 * `"I like " + "."×N + "x"` through the sentence and clause splitters, the rules extractor and the
 * transcript parser; `"password: x" + "."×N + "a"` through redaction; the save gate on both at the
 * content limit; and a ~1 MB import body of such lines through the import's text work (parse and
 * validate, redact, neighbour context, injection check, index tokens). Then chrono-node, whose patterns
 * recheck partly calls polynomial: the recall query's time expressions at the bound chrono reads
 * (CHRONO_MAX_CHARS), each hostile family's worst, beside chrono alone on four times that. Chinese
 * password labels (`密码：` each opening a value of up to 200 characters) through redaction, beside
 * an ordinary Chinese transcript of the same size (PASSWORD_LABEL_SHAPES; the ratio is printed). Then
 * the write paths' relative dates (memory/text/relative-dates.ts namedDay, chrono's English and
 * simplified-Chinese parsers in windows of CHRONO_MAX_CHARS) on a memory of the content limit made of
 * chrono-zh's hostile families (recheck's attack strings), beside chrono-zh alone on one window and
 * on four times that, and what an ordinary line costs (with a date word, and without). The sources are bundled with
 * esbuild (src/ imports omit extensions, which Node alone does not resolve). Prints milliseconds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const ENTRY = `
export { splitSentences, splitClauses } from "./src/providers/rules/text";
export { extractFactsByRules } from "./src/providers/rules/extract-facts";
export { parseTranscript } from "./src/memory/write/transcript";
export { redactSecrets } from "./src/memory/write/redact-secrets";
export { screenContent } from "./src/memory/write/screen-content";
export { detectInjection } from "./src/memory/write/injection-detector";
export { parseImportLines } from "./src/memory/import/parse-import-lines";
export { conversationContext } from "./src/memory/import/conversation-context";
export { indexTokens } from "./src/memory/text/tokenize";
export { timeWindows, CHRONO_MAX_CHARS } from "./src/memory/text/time-expressions";
export { casual } from "chrono-node/en";
export { namedDay } from "./src/memory/text/relative-dates";
export { casual as casualZh } from "chrono-node/zh/hans";
export { PASSWORD_LABEL_SHAPES, ordinaryZhTranscript } from "./scripts/lib/password-label-shapes";
`;

type Fn = (...args: never[]) => unknown;

async function load(): Promise<Record<string, Fn>> {
  const dir = mkdtempSync(join(tmpdir(), "bench-redos-"));
  const out = join(dir, "text.mjs");
  try {
    await build({
      stdin: { contents: ENTRY, resolveDir: resolve("."), loader: "ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: out,
      logLevel: "silent",
    });
    return (await import(pathToFileURL(out).href)) as Record<string, Fn>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function time(label: string, run: () => unknown): void {
  const started = performance.now();
  run();
  console.log(`${label.padEnd(64)} ${(performance.now() - started).toFixed(1).padStart(8)} ms`);
}

const { values } = parseArgs({ options: { repeat: { type: "string", default: "32000" } } });
const n = Number(values.repeat);
const like = (k: number) => `I like ${".".repeat(k)}x`;
const password = (k: number) => `password: x${".".repeat(k)}a`;
// biome-ignore lint/suspicious/noExplicitAny: the bundle's exports are called as the sources declare them
const m = (await load()) as Record<string, (...args: any[]) => any>;

time(`splitSentences("I like " + "."×${n} + "x")`, () => m.splitSentences(like(n)));
time(`splitClauses("I like " + "."×${n} + "x")`, () => m.splitClauses(like(n)));
time(`extractFactsByRules(user: "I like " + "."×${n} + "x")`, () =>
  m.extractFactsByRules([{ role: "user", content: like(n) }]),
);
time(`parseTranscript("User: I like " + "."×${n} + "x")`, () => m.parseTranscript(`User: ${like(n)}`));
time(`redactSecrets("password: x" + "."×${n} + "a")`, () => m.redactSecrets(password(n)));
time(`extractFactsByRules(user: "password: x" + "."×${n} + "a")`, () =>
  m.extractFactsByRules([{ role: "user", content: password(n) }]),
);
time(`screenContent("I like " + "."×7990 + "x") (content limit)`, () => m.screenContent(like(7990), 1, 0));
time(`screenContent("password: x" + "."×7980 + "a") (content limit)`, () => m.screenContent(password(7980), 1, 0));
const body = Array.from({ length: 128 }, (_, i) =>
  JSON.stringify({ content: i % 2 ? like(7500) : password(7500), external_id: `hostile-${i}` }),
).join("\n");
time(`import text work, ${(body.length / 1e6).toFixed(2)} MB of such lines`, () => {
  const parsed = m.parseImportLines(body);
  if (!parsed.ok) throw new Error("the import body did not validate");
  const redacted = parsed.lines.map((l: { input: { content: string } }) => m.redactSecrets(l.input.content));
  m.conversationContext(redacted.map((r: { text: string }) => ({ content: r.text, source: null })));
  for (const r of redacted) {
    m.detectInjection(r.text);
    m.indexTokens(r.text);
  }
});

// Chinese password labels: each adversarial shape against an ordinary transcript of the same size.
const labelChars = 60_000;
const labels = m as unknown as {
  PASSWORD_LABEL_SHAPES: Record<string, (chars: number) => string>;
  ordinaryZhTranscript: (chars: number) => string;
};
const timed = (run: () => unknown): number => {
  const started = performance.now();
  run();
  return performance.now() - started;
};
/**
 * The best of 15 rounds after 3 warm-ups (V8 compiles the scans on the first calls), every text
 * measured once a round, interleaved: on a shared machine a burst of load then slows all of them
 * alike instead of one, so the ratios hold where the milliseconds do not.
 */
const bestInterleaved = (texts: string[]): number[] => {
  for (let i = 0; i < 3; i++) for (const text of texts) m.redactSecrets(text);
  const best = texts.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < 15; round++)
    texts.forEach((text, i) => {
      best[i] = Math.min(
        best[i],
        timed(() => m.redactSecrets(text)),
      );
    });
  return best;
};
const ordinaryText = labels.ordinaryZhTranscript(labelChars);
const shapes = Object.entries(labels.PASSWORD_LABEL_SHAPES).map(([name, make]) => [name, make(labelChars)] as const);
const [ordinaryMs, ...shapeMs] = bestInterleaved([ordinaryText, ...shapes.map(([, text]) => text)]);
console.log(
  `${`redactSecrets(ordinary Chinese transcript, ${ordinaryText.length} chars)`.padEnd(64)} ${ordinaryMs.toFixed(1).padStart(8)} ms`,
);
shapes.forEach(([name, text], i) => {
  const label = `redactSecrets(${name}, ${text.length} chars)`;
  console.log(
    `${label.padEnd(64)} ${shapeMs[i].toFixed(1).padStart(8)} ms  ${(shapeMs[i] / ordinaryMs).toFixed(1)}× ordinary`,
  );
});
const worst = Math.max(...shapeMs) / ordinaryMs;
console.log(`${"redactSecrets, worst password-label shape".padEnd(64)} ${worst.toFixed(1).padStart(8)}× ordinary`);
// The same texts as a summarize_conversation transcript's text work: parse the turns, redact each,
// extract facts by rules — what the issue's "an ordinary transcript of the same size" compares.
const summarizeWork = (text: string) => () => {
  const turns = m.parseTranscript(text) as { role: string; content: string }[];
  const redacted = turns.map((t) => ({ role: t.role, content: m.redactSecrets(t.content).text }));
  m.extractFactsByRules(redacted);
};
const bestOf = (run: () => unknown): number => {
  for (let i = 0; i < 2; i++) run();
  return Math.min(...[0, 1, 2].map(() => timed(run)));
};
const asTranscript = (text: string) => `User: ${text.replace(/\n/g, "\nUser: ")}`;
const ordinaryWork = bestOf(summarizeWork(ordinaryText.replace(/用户：/g, "User: ").replace(/助手：/g, "Assistant: ")));
console.log(
  `${`summarize text work (ordinary Chinese transcript)`.padEnd(64)} ${ordinaryWork.toFixed(1).padStart(8)} ms`,
);
for (const [name, make] of Object.entries(labels.PASSWORD_LABEL_SHAPES)) {
  const ms = bestOf(summarizeWork(asTranscript(make(labelChars))));
  const label = `summarize text work (${name})`;
  console.log(`${label.padEnd(64)} ${ms.toFixed(1).padStart(8)} ms  ${(ms / ordinaryWork).toFixed(1)}× ordinary`);
}

// chrono-node reads at most CHRONO_MAX_CHARS of a query (its polynomial patterns, docs/reliability.md).
const loaded = m as unknown as { CHRONO_MAX_CHARS: number; casual: { parse(text: string, ref: Date): unknown } };
const bound = loaded.CHRONO_MAX_CHARS;
const fill = (unit: string, chars: number) => unit.repeat(Math.floor(chars / unit.length));
const CHRONO_FAMILIES: Record<string, (chars: number) => string> = {
  '"1 "': (c) => fill("1 ", c),
  '"1."': (c) => fill("1.", c),
  '"1/"': (c) => fill("1/", c),
  '"may "': (c) => fill("may ", c),
  '"a couple of "': (c) => fill("a couple of ", c),
  '"5 days, "': (c) => fill("5 days, ", c),
  '"r" + "0"… + "n"': (c) => `r${"0".repeat(c - 2)}n`,
  '"in" + " "… + "x"': (c) => `in${" ".repeat(c - 3)}x`,
  "U+FDFA (NFKC: 18 characters each)": (c) => "\uFDFA".repeat(c),
};
// The first long query pays V8's compilation of chrono's patterns (about the same at 250 characters
// as at 1,000 on this VM), printed apart so the lines below show what the input itself costs.
time(`timeWindows(${Object.keys(CHRONO_FAMILIES)[0]} × ${bound} chars), first call`, () =>
  m.timeWindows(CHRONO_FAMILIES['"1 "'](bound), 0),
);
for (const [name, make] of Object.entries(CHRONO_FAMILIES)) {
  time(`timeWindows(${name} × ${bound} chars, the bound)`, () => m.timeWindows(make(bound), 0));
  time(`  chrono alone on ${name} × ${4 * bound} chars`, () => loaded.casual.parse(make(4 * bound), new Date(0)));
}

// The write paths' dates: chrono's zh parsers read saved text in windows of CHRONO_MAX_CHARS (relative-dates.ts).
const zhChrono = m.casualZh as unknown as { parse(text: string, ref: Date): unknown };
const CONTENT_MAX = 8000;
const ZH_FAMILIES: Record<string, (chars: number) => string> = {
  '"0"… + "半月前"': (c) => `${"0".repeat(c - 3)}半月前`,
  '"〇"… + "半日后"': (c) => `${"〇".repeat(c - 3)}半日后`,
  '"\\t"… + "月〇月"': (c) => `${"\t".repeat(c - 3)}月〇月`,
  '"明日" + "\\t"… + "点"': (c) => `明日${"\t".repeat(c - 3)}点`,
  '"1 "… + "明天"': (c) => `${fill("1 ", c - 2)}明天`,
  '","… + "1月"': (c) => `${",".repeat(c - 2)}1月`,
  '"，"… + "1月"': (c) => `${"，".repeat(c - 2)}1月`,
  '"年 "… + "1月"': (c) => `${fill("年 ", c - 2)}1月`,
  '"0，"… + "1月"': (c) => `${fill("0，", c - 2)}1月`,
};
time(`namedDay(ordinary line), first call`, () => m.namedDay("我下周五要去杭州出差", { at: 0, timeZone: "UTC" }));
for (const [name, make] of Object.entries(ZH_FAMILIES)) {
  time(`namedDay(${name} × ${CONTENT_MAX} chars, the content limit)`, () =>
    m.namedDay(make(CONTENT_MAX), { at: 0, timeZone: "Asia/Shanghai" }),
  );
  time(`  chrono-zh alone on ${name} × ${bound} chars (one window)`, () => zhChrono.parse(make(bound), new Date(0)));
  time(`  chrono-zh alone on ${name} × ${4 * bound} chars`, () => zhChrono.parse(make(4 * bound), new Date(0)));
}
// What an ordinary memory costs the write paths: lines with a date word, and without one (chrono skipped).
const ORDINARY: Record<string, string[]> = {
  "with a date word": [
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "我下周五要去杭州出差，顺便看看老朋友。",
    "Dinner with Ana at the harbour the day after tomorrow",
    "两周后去成都看演唱会，票已经买好了",
  ],
  "without one": [
    "Melanie: I painted a lake sunrise, it was lovely and calm.",
    "我住在杭州，在银行工作",
    "My sister Ana works as a nurse in Porto",
    "我喜欢喝乌龙茶，不喜欢咖啡",
  ],
};
for (const [name, lines] of Object.entries(ORDINARY)) {
  const rounds = 500;
  const started = performance.now();
  for (let i = 0; i < rounds; i++) for (const l of lines) m.namedDay(l, { at: 0, timeZone: "Asia/Shanghai" });
  const perLine = ((performance.now() - started) / (rounds * lines.length)) * 1000;
  console.log(`${`namedDay per ordinary line ${name}`.padEnd(64)} ${perLine.toFixed(0).padStart(8)} us`);
}
