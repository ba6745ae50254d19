/**
 * @module test/node/redos-patterns
 * Collects the regular expressions that can see user text, for the ReDoS test: every regex literal of
 * every source file in src/ (parsed, not grepped), every `new RegExp(…)` a module builds when it loads,
 * and chrono-node's patterns (the recall query goes through its English casual parser; saved text
 * through it and its simplified-Chinese one, memory/text/relative-dates.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import * as acorn from "acorn";
import * as walk from "acorn-walk";

export const ROOT = join(import.meta.dirname, "../..");

export interface Found {
  where: string;
  source: string;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

interface Scanned {
  literals: Found[];
  constructed: number;
  imports: string[];
}

/** Regex literals, `RegExp(…)` sites and relative imports of one module (JavaScript, or TypeScript stripped). */
function scan(file: string): Scanned {
  const text = readFileSync(file, "utf8");
  const js = file.endsWith(".ts") ? stripTypeScriptTypes(text, { mode: "transform" }) : text;
  const ast = acorn.parse(js, { ecmaVersion: "latest", sourceType: "module" });
  const out: Scanned = { literals: [], constructed: 0, imports: [] };
  walk.full(ast, (node) => {
    const n = node as acorn.Node & {
      regex?: { pattern: string; flags: string };
      callee?: { type: string; name?: string };
      source?: { value?: unknown };
    };
    if (n.type === "Literal" && n.regex)
      out.literals.push({ where: relative(ROOT, file), source: n.regex.pattern, flags: n.regex.flags });
    if ((n.type === "NewExpression" || n.type === "CallExpression") && n.callee?.name === "RegExp") out.constructed++;
    const from = n.source?.value;
    if (
      /^(?:Import|ExportNamed|ExportAll)Declaration$/.test(n.type) &&
      typeof from === "string" &&
      from.startsWith(".")
    )
      out.imports.push(from);
  });
  return out;
}

/** Patterns built with `new RegExp` while `run` runs, attributed to `where`. */
async function constructedWhile(where: string, run: () => Promise<unknown>): Promise<Found[]> {
  const found: Found[] = [];
  const Original = globalThis.RegExp;
  globalThis.RegExp = new Proxy(Original, {
    construct(target, args: [string | RegExp, string?]) {
      const re = new target(...args);
      found.push({ where, source: re.source, flags: re.flags });
      return re;
    },
  });
  try {
    await run();
  } finally {
    globalThis.RegExp = Original;
  }
  return found;
}

/** Every pattern of src/, and the files whose `new RegExp` sites did not all run on import. */
export async function srcPatterns(): Promise<{ patterns: Found[]; unbuilt: string[] }> {
  const patterns: Found[] = [];
  const unbuilt: string[] = [];
  for (const file of sourceFiles(join(ROOT, "src"))) {
    const { literals, constructed } = scan(file);
    patterns.push(...literals);
    if (constructed === 0) continue;
    const where = relative(ROOT, file);
    const built = await constructedWhile(where, () => import(`${pathToFileURL(file).href}?redos=${Date.now()}`));
    if (built.length < constructed) unbuilt.push(`${where}: ${constructed} sites, ${built.length} built`);
    patterns.push(...built);
  }
  return { patterns, unbuilt };
}

const CHRONO_EN = join(ROOT, "node_modules/chrono-node/dist/esm/locales/en/index.js");
const CHRONO_ZH = join(ROOT, "node_modules/chrono-node/dist/esm/locales/zh/hans/index.js");

/**
 * chrono-node's patterns that the recall query and saved text meet (memory/text/time-expressions.ts
 * and relative-dates.ts parse with `casual` from chrono-node/en and chrono-node/zh/hans): the regex literals of every module that entry point loads, the
 * patterns those modules build while loading, and the ones each parser builds when it parses. Call
 * before anything else loads chrono-node, or its load-time patterns are already built.
 */
export async function chronoPatterns(): Promise<Found[]> {
  const seen = new Set<string>();
  const literals: Found[] = [];
  const queue = [CHRONO_EN, CHRONO_ZH];
  while (queue.length > 0) {
    const file = queue.pop() ?? "";
    if (seen.has(file)) continue;
    seen.add(file);
    const scanned = scan(file);
    literals.push(...scanned.literals);
    queue.push(...scanned.imports.map((i) => join(dirname(file), i)));
  }
  const built = await constructedWhile("chrono-node (built)", async () => {
    const { casual } = await import("chrono-node/en");
    casual.parse("we met on may 7, 2023 at 5pm, two weeks ago, until next friday 10/12", new Date(0));
    const zh = await import("chrono-node/zh/hans");
    zh.casual.parse("我们2023年5月7日下午5点见过，两个星期后，下周五，明天，三天前", new Date(0));
  });
  return [...literals, ...built];
}

/** One entry per distinct source and flags, the first place it was found kept. */
export function distinct(patterns: Found[]): Found[] {
  return [...new Map(patterns.map((p) => [`/${p.source}/${p.flags}`, p])).values()];
}
