/**
 * @module scripts/lib/deploy-placeholders
 * The template's placeholder resource ids in a production wrangler config, and the command that
 * creates each resource. D1 database ids and KV namespace ids are 32 hex digits (a UUID's with its
 * dashes); an id that is missing, is not 32 hex digits, or has at most one non-zero digit (the
 * template's `00000000-0000-0000-0000-000000000000`, `…0001`) was never made by Cloudflare. Vectorize
 * indexes are named, not numbered: nothing offline can tell whether one exists, so its commands are
 * always listed beside the ids. Rate-limit namespace ids must be unique to the account: the docs'
 * examples (1001, 1002), which the template carries, count as placeholders too.
 */
import { EXAMPLE_RATELIMIT_IDS, OAUTH_KV_TITLE } from "./setup-config.ts";

export interface ProductionResources {
  d1_databases: { binding: string; database_name?: string; database_id?: string }[];
  kv_namespaces: { binding: string; id?: string }[];
  vectorize: { binding: string; index_name?: string }[];
  ratelimits?: { name: string; namespace_id?: string }[];
}

/** A resource whose id in the config is a placeholder, and how to create it. */
export interface Placeholder {
  /** "D1 DB database_id 00000000-…" */
  what: string;
  /** The wrangler command that creates it (its output carries the id to put in the config). */
  create: string;
}

const HEX = new Set("0123456789abcdef");

/** True when `id` cannot be an id Cloudflare issued (see the module comment). */
export function isPlaceholderId(id: string | undefined): boolean {
  const digits = (id ?? "").toLowerCase().replaceAll("-", "");
  if (digits.length !== 32 || [...digits].some((c) => !HEX.has(c))) return true;
  return [...digits].filter((c) => c !== "0").length <= 1;
}

export function placeholderIds(prod: ProductionResources): Placeholder[] {
  const found: Placeholder[] = [];
  for (const d of prod.d1_databases)
    if (isPlaceholderId(d.database_id))
      found.push({
        what: `D1 ${d.binding} database_id ${JSON.stringify(d.database_id ?? "")}`,
        create: `npx wrangler d1 create ${d.database_name ?? d.binding.toLowerCase()}`,
      });
  for (const k of prod.kv_namespaces)
    if (isPlaceholderId(k.id))
      found.push({
        what: `KV ${k.binding} id ${JSON.stringify(k.id ?? "")}`,
        create: `npx wrangler kv namespace create ${k.binding === "OAUTH_KV" ? OAUTH_KV_TITLE : k.binding}`,
      });
  const seen = new Set<string>();
  for (const r of prod.ratelimits ?? []) {
    const id = r.namespace_id ?? "";
    if (EXAMPLE_RATELIMIT_IDS.includes(id) || seen.has(id) || !/^[1-9]\d*$/.test(id))
      found.push({
        what: `rate limit ${r.name} namespace_id ${JSON.stringify(id)} (${seen.has(id) ? "used twice" : "an example id"}: it must be unique in your account)`,
        create: "npm run setup (writes an id of its own), or any integer no other rate limit of your account uses",
      });
    seen.add(id);
  }
  return found;
}

/** The commands that create each Vectorize index the config names (1,024 dimensions: bge-m3) and its `owner` filter. */
export function vectorizeCommands(prod: ProductionResources): string[] {
  return prod.vectorize.flatMap((v) => {
    const name = v.index_name ?? "hippocampus-memories";
    return [
      `npx wrangler vectorize create ${name} --dimensions=1024 --metric=cosine`,
      `npx wrangler vectorize create-metadata-index ${name} --propertyName=owner --type=string`,
    ];
  });
}
