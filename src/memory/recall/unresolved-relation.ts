/**
 * @module memory/recall/unresolved-relation
 * A question about "my uncle" or 「我奶奶」 when the person never told of an uncle or a grandmother: no
 * alias resolves the relation word (relation-resolution.ts), so nothing remembered is about that
 * person unless it says the word. Recall answers such a question only from memories that name the
 * relation — the word itself or one naming the same relation ("mum": mom, mother; 「奶奶」 alone) —
 * so "What does my uncle do for a living?" is not answered with "Anna flies cargo planes for a
 * living". A relation some memory recall read does name was told of, and is left to the words.
 * Pure; plain substring and word checks (linear).
 */
import { relationPhrases } from "../entities/query-relations";
import { EN_RELATIONS, ZH_RELATIONS, ZH_SAID_ONCE } from "../entities/relation-words";

const HAN = /\p{Script=Han}/u;

/** The relation words naming what `key` names ("老公" → 老公, 丈夫, 先生), `key` first. */
export function relationWords(key: string): string[] {
  const table = HAN.test(key) ? ZH_RELATIONS : EN_RELATIONS;
  const predicate = table.get(key)?.predicate;
  if (predicate === undefined) return [key];
  return [key, ...[...table].filter(([w, r]) => r.predicate === predicate && w !== key).map(([w]) => w)];
}

/**
 * Every word naming the relation `key` names ("mum" → mum, mom, mother, mama), in its own language; a
 * doubled Chinese word of the immediate family is also said once (爸爸 → 爸: 「我爸一直希望…」).
 */
function variants(key: string): string[] {
  const words = relationWords(key);
  const once = words.filter((w) => ZH_SAID_ONCE[w[0]] === w).map((w) => w[0]);
  return [...new Set([...words, ...once])];
}

/**
 * In-laws are told of by the spouse's words for them as often as by their own (「老公：妈说中秋想来住一周」
 * is the mother-in-law): a memory that never says 婆婆 may still be about her, so the words decide.
 */
function calledByOtherWords(key: string): boolean {
  const table = HAN.test(key) ? ZH_RELATIONS : EN_RELATIONS;
  return table.get(key)?.predicate.endsWith("_in_law_of") ?? false;
}

/**
 * The relation words of a question that no alias resolved and that nothing recall found names (`seen`:
 * the rows BM25 read for the question), each with its variants: the people never told of. None when every
 * relation resolved or was spoken of (「我母亲吃的降压药」 asked of someone who told of 「我妈」's blood
 * pressure is about her, whatever the turn that answers says).
 */
export function unresolvedRelations(
  query: string,
  resolvedKeys: ReadonlySet<string>,
  seen: readonly { content: string }[],
): string[][] {
  return relationPhrases(query)
    .filter((p) => !resolvedKeys.has(p.key) && !calledByOtherWords(p.key))
    .map((p) => variants(p.key))
    .filter((forms) => !seen.some((m) => namesRelations(m.content, [forms])));
}

/** Whether `content` names each of the relations (any variant of each): a whole English word, or a Chinese substring. */
export function namesRelations(content: string, relations: string[][]): boolean {
  const lower = content.toLowerCase();
  const words = new Set(lower.match(/[\p{L}'’-]+/gu)?.map((w) => w.replace(/['’]s$/u, "")) ?? []);
  return relations.every((forms) =>
    forms.some((form) =>
      HAN.test(form) ? lower.includes(form) : form.includes(" ") ? lower.includes(form) : words.has(form),
    ),
  );
}
