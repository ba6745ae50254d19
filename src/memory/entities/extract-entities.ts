/**
 * @module memory/entities/extract-entities
 * What one memory names, by the offline rules (English and Chinese, entity-rules-en.ts and
 * entity-rules-zh.ts): the write paths call this for every memory they store. A conversation turn
 * ("Caroline: my sister Ana…") is read as its speaker's words: "my" and 「我」 are the speaker, who
 * becomes a relation end and an alias owner ("Caroline's sister"), not a mention of every turn.
 */
import { splitSpeaker } from "../text/speaker";
import { extractEnglish } from "./entity-rules-en";
import { extractChinese } from "./entity-rules-zh";
import { ENTITY_LIMITS, type EntityInput, type MemoryEntities, type RelationInput, USER } from "./entity-types";
import { keepStronger } from "./kind-cues";

const HAN = /\p{Script=Han}/u;
/**
 * A redaction marker left by the write path (memory/write/redact-secrets.ts: `[REDACTED:api_key]`):
 * where a secret was, not a name. Read as a pause, so no rule takes "REDACTED" or the kind for one.
 */
const REDACTION_MARKER = /\[REDACTED(?::[\w-]{0,40})?\]/gu;
/** Relation words and names longer than this are not names (a pasted sentence). */
const MAX_NAME = ENTITY_LIMITS.nameMaxChars;

function merge(into: Map<string, EntityInput>, list: EntityInput[]): void {
  for (const e of list) {
    if (e.name.length > MAX_NAME || e.name.toLowerCase() === USER) continue;
    const known = into.get(e.name);
    if (!known) {
      into.set(e.name, { ...e, aliases: [...new Set(e.aliases)].slice(0, ENTITY_LIMITS.aliasesMax) });
      continue;
    }
    keepStronger(known, e);
    known.aliases = [...new Set([...known.aliases, ...e.aliases])].slice(0, ENTITY_LIMITS.aliasesMax);
  }
}

/** The entities, relations and related speaker one memory's text names. */
export function extractEntities(memoryId: string, content: string): MemoryEntities {
  const turn = splitSpeaker(content);
  const text = (turn ? turn.body : content).replace(REDACTION_MARKER, ", ");
  const self = turn ? turn.speaker : USER;
  const selfAlias = (rel: string) =>
    turn ? [HAN.test(turn.speaker) ? `${turn.speaker}的${rel}` : `${turn.speaker}'s ${rel}`] : [];
  const entities = new Map<string, EntityInput>();
  const relations: RelationInput[] = [];
  for (const part of [
    extractEnglish(text, self, selfAlias),
    ...(HAN.test(text) ? [extractChinese(text, self, selfAlias)] : []),
  ]) {
    merge(entities, part.entities);
    relations.push(...part.relations);
  }
  if (turn) entities.delete(turn.speaker);
  // Two patterns may read one tie ("I report to Tom, my boss"): each relation is kept once.
  const seen = new Set<string>();
  const kept = relations.filter((r) => {
    const key = `${r.subject}\u0000${r.predicate}\u0000${r.object}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return (r.subject === self || entities.has(r.subject)) && (r.object === self || entities.has(r.object));
  });
  const related =
    turn && kept.some((r) => r.subject === self || r.object === self)
      ? [{ name: turn.speaker, kind: "person" as const, aliases: [] }]
      : [];
  // The cue only settles disagreements inside this memory; what is stored is the kind alone.
  const out = [...entities.values()].map(({ cue: _cue, ...e }) => e);
  return { memoryId, entities: out, relations: kept, ...(related.length > 0 ? { related } : {}) };
}
