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
  vectorize: { binding: string; index: string } | null;
  kv: { binding: string; id: string } | null;
}

export const PRODUCTION_ENV = "production";

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
  const [vec] = blocks(head, "vectorize").map((b) => ({ binding: field(b, "binding"), index: field(b, "index_name") }));
  const [kv] = blocks(head, "kv_namespaces")
    .map((b) => ({ binding: field(b, "binding"), id: field(b, "id") }))
    .filter((k) => k.binding === "OAUTH_KV");
  return { d1, vectorize: vec ?? null, kv: kv ?? null };
}

/** Sets `key = "value"` in the production `[[table]]` block whose `binding` is `binding`. */
export function writeId(path: string, table: string, binding: string, key: string, value: string): boolean {
  const { before, section, after } = productionSection(readFileSync(path, "utf8"));
  const parts = section.split(tableHeader(table));
  let changed = false;
  for (let i = 1; i < parts.length; i++) {
    if (field(parts[i], "binding") !== binding) continue;
    const next = parts[i].replace(new RegExp(`^${key}\\s*=\\s*"[^"]*"`, "m"), `${key} = "${value}"`);
    changed = next !== parts[i];
    parts[i] = next;
  }
  if (changed) writeFileSync(path, before + parts.join(`[[env.production.${table}]]`) + after);
  return changed;
}

/** Placeholder ids (all zeros) are what a fresh checkout has: nothing created yet. */
export const isPlaceholder = (id: string) => id === "" || /^[0-]+$/.test(id);
