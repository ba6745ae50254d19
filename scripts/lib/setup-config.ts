/**
 * @module scripts/lib/setup-config
 * What `npm run setup` reads from and writes into wrangler.toml: the production ([env.production])
 * D1 databases, the Vectorize index, the OAuth KV namespace; and the ids written back into that
 * section's blocks only (never the top level or another env), where deploy:check and
 * `wrangler deploy --env production` read them.
 * Text edits, so every comment and the layout of the file stay as they were.
 */
import { readFileSync, writeFileSync } from "node:fs";

export interface ProductionResources {
  d1: { binding: string; name: string; id: string }[];
  /** Every `[[env.production.vectorize]]`: VECTORIZE, and one per shard that has its own (VECTORIZE_BY_SHARD). */
  vectorize: { binding: string; index: string }[];
  kv: { binding: string; id: string } | null;
  /** `[[env.production.ratelimits]]`: each one's name and namespace_id. */
  ratelimits: { name: string; namespaceId: string }[];
}

export const PRODUCTION_ENV = "production";

/**
 * The OAuth KV namespace's title: what setup creates and looks for, what the README's manual command
 * and deploy:check's hint create (`npx wrangler kv namespace create hippocampus-oauth`).
 */
export const OAUTH_KV_TITLE = "hippocampus-oauth";

/**
 * Rate-limit namespace ids that are examples, not ids of this account: the Workers rate-limit docs'
 * `1001` / `1002` (developers.cloudflare.com/workers/runtime-apis/bindings/rate-limit/: "An identifier
 * you define, that is unique to your Cloudflare account"), which the template carries.
 */
export const EXAMPLE_RATELIMIT_IDS: readonly string[] = ["1001", "1002"];

/**
 * The file split around the production section: from its `[env.production]` header (or its first
 * `[env.production.*]` table) to the first table of another environment or of the top level.
 */
function productionSection(text: string): { before: string; section: string; after: string } {
  const start = text.search(/^\[+env\.production[\].]/m);
  if (start < 0) return { before: text, section: "", after: "" };
  const rest = text.slice(start);
  const end = rest.search(/^\[\[?(?!\[|env\.production[\].])/m);
  const stop = end < 0 ? text.length : start + end;
  return { before: text.slice(0, start), section: text.slice(start, stop), after: text.slice(stop) };
}

/** `[[env.production.name]]` where a table starts: alone on its line (a comment may mention it too). */
const tableHeader = (name: string) => new RegExp(`^\\[\\[env\\.production\\.${name}\\]\\]$`, "m");

/** The blocks `[[env.production.name]]`, each as its text. */
function blocks(head: string, name: string): string[] {
  return head
    .split(tableHeader(name))
    .slice(1)
    .map((b) => b.split(/^\[/m)[0]);
}

const field = (block: string, key: string) => new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, "m").exec(block)?.[1] ?? "";

export function readResources(path: string): ProductionResources {
  const head = productionSection(readFileSync(path, "utf8")).section;
  const d1 = blocks(head, "d1_databases").map((b) => ({
    binding: field(b, "binding"),
    name: field(b, "database_name"),
    id: field(b, "database_id"),
  }));
  const vectorize = blocks(head, "vectorize").map((b) => ({
    binding: field(b, "binding"),
    index: field(b, "index_name"),
  }));
  const [kv] = blocks(head, "kv_namespaces")
    .map((b) => ({ binding: field(b, "binding"), id: field(b, "id") }))
    .filter((k) => k.binding === "OAUTH_KV");
  const ratelimits = blocks(head, "ratelimits").map((b) => ({
    name: field(b, "name"),
    namespaceId: field(b, "namespace_id"),
  }));
  return { d1, vectorize, kv: kv ?? null, ratelimits };
}

/** Sets `key = "value"` in the production `[[table]]` block whose `by` field (`binding`, or `name` for ratelimits) is `binding`. */
export function writeId(
  path: string,
  table: string,
  binding: string,
  key: string,
  value: string,
  by: "binding" | "name" = "binding",
): boolean {
  const { before, section, after } = productionSection(readFileSync(path, "utf8"));
  const parts = section.split(tableHeader(table));
  let changed = false;
  for (let i = 1; i < parts.length; i++) {
    if (field(parts[i], by) !== binding) continue;
    const next = parts[i].replace(new RegExp(`^${key}\\s*=\\s*"[^"]*"`, "m"), `${key} = "${value}"`);
    changed = next !== parts[i];
    parts[i] = next;
  }
  if (changed) writeFileSync(path, before + parts.join(`[[env.production.${table}]]`) + after);
  return changed;
}

/** Placeholder ids (all zeros) are what a fresh checkout has: nothing created yet. */
export const isPlaceholder = (id: string) => id === "" || /^[0-]+$/.test(id);

/**
 * Sets `key = "value"` in `[env.production.vars]` (replacing the line, or adding it under the table's
 * header); true when the file changed.
 */
export function setProductionVar(path: string, key: string, value: string): boolean {
  const { before, section, after } = productionSection(readFileSync(path, "utf8"));
  const header = /^\[env\.production\.vars\]$/m.exec(section);
  if (!header) throw new Error(`${path} has no [env.production.vars] table`);
  const line = `${key} = ${JSON.stringify(value)}`;
  const existing = new RegExp(`^${key}\\s*=.*$`, "m");
  const varsStart = header.index + header[0].length;
  const rest = section.slice(varsStart);
  const end = rest.search(/^\[/m);
  const vars = end < 0 ? rest : rest.slice(0, end);
  const next = existing.test(vars) ? vars.replace(existing, line) : `\n${line}${vars}`;
  if (next === vars) return false;
  writeFileSync(path, before + section.slice(0, varsStart) + next + (end < 0 ? "" : rest.slice(end)) + after);
  return true;
}

/**
 * Comments out every production table whose header is `header` (e.g. `[[env.production.vectorize]]`):
 * its header and its lines up to the next table. True when the file changed.
 */
export function commentOutProductionTable(path: string, header: string): boolean {
  const { before, section, after } = productionSection(readFileSync(path, "utf8"));
  const lines = section.split("\n");
  let inside = false;
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith("[")) inside = lines[i] === header;
    if (inside && lines[i].trim() !== "" && !lines[i].startsWith("#")) {
      lines[i] = `# ${lines[i]}`;
      changed = true;
    }
  }
  if (changed) writeFileSync(path, before + lines.join("\n") + after);
  return changed;
}
