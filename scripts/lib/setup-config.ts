/**
 * @module scripts/lib/setup-config
 * What `npm run setup` reads from and writes into wrangler.toml: the production (top-level) D1
 * databases, the Vectorize index, the OAuth KV namespace; and the ids written back into the
 * top-level blocks only (never an [env.*] block), where deploy:check and `wrangler deploy` read them.
 * Text edits, so every comment and the layout of the file stay as they were.
 */
import { readFileSync, writeFileSync } from "node:fs";

export interface ProductionResources {
  d1: { binding: string; name: string; id: string }[];
  vectorize: { binding: string; index: string } | null;
  kv: { binding: string; id: string } | null;
}

/** The part of the file before the first [env.*] table: the production configuration. */
function topLevel(text: string): { head: string; tail: string } {
  const at = text.search(/^\[+env\./m);
  return at < 0 ? { head: text, tail: "" } : { head: text.slice(0, at), tail: text.slice(at) };
}

/** `[[name]]` where a table starts: alone on its line (a comment may mention it too). */
const tableHeader = (name: string) => new RegExp(`^\\[\\[${name}\\]\\]$`, "m");

/** The blocks `[[name]]` of the top level, each as its text. */
function blocks(head: string, name: string): string[] {
  return head
    .split(tableHeader(name))
    .slice(1)
    .map((b) => b.split(/^\[/m)[0]);
}

const field = (block: string, key: string) => new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, "m").exec(block)?.[1] ?? "";

export function readResources(path: string): ProductionResources {
  const { head } = topLevel(readFileSync(path, "utf8"));
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

/** Sets `key = "value"` in the top-level `[[table]]` block whose `binding` is `binding`. */
export function writeId(path: string, table: string, binding: string, key: string, value: string): boolean {
  const { head, tail } = topLevel(readFileSync(path, "utf8"));
  const parts = head.split(tableHeader(table));
  let changed = false;
  for (let i = 1; i < parts.length; i++) {
    if (field(parts[i], "binding") !== binding) continue;
    const next = parts[i].replace(new RegExp(`^${key}\\s*=\\s*"[^"]*"`, "m"), `${key} = "${value}"`);
    changed = next !== parts[i];
    parts[i] = next;
  }
  if (changed) writeFileSync(path, parts.join(`[[${table}]]`) + tail);
  return changed;
}

/** Placeholder ids (all zeros) are what a fresh checkout has: nothing created yet. */
export const isPlaceholder = (id: string) => id === "" || /^[0-]+$/.test(id);
