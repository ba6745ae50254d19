/**
 * @module memory/recall/unresolved-relation
 * A question about "my uncle" or 「我奶奶」 when the person never told of an uncle or a grandmother: no
 * alias resolves the relation word (relation-resolution.ts), so nothing remembered is about that
 * person unless it says the word. Recall answers such a question only from memories that name the
 * relation — the word itself or one naming the same relation ("mum": mom, mother; 「奶奶」 alone) —
 * so "What does my uncle do for a living?" is not answered with "Anna flies cargo planes for a
 * living". Pure; plain substring and word checks (linear).
 */
import { relationPhrases } from "../entities/query-relations";
import { EN_RELATIONS, ZH_RELATIONS } from "../entities/relation-words";

const HAN = /\p{Script=Han}/u;

/** Every word naming the relation `key` names ("mum" → mum, mom, mother, mama), in its own language. */
function variants(key: string): string[] {
  const table = HAN.test(key) ? ZH_RELATIONS : EN_RELATIONS;
  const predicate = table.get(key)?.predicate;
  if (predicate === undefined) return [key];
  return [...table].filter(([, w]) => w.predicate === predicate).map(([word]) => word);
}

/** The relation words of a question that no alias resolved, each with its variants; none when all resolved. */
export function unresolvedRelations(query: string, resolvedKeys: ReadonlySet<string>): string[][] {
  return relationPhrases(query)
    .filter((p) => !resolvedKeys.has(p.key))
    .map((p) => variants(p.key));
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
