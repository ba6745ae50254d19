/**
 * @module memory/recall/favourite-kind
 * "What's my favourite restaurant?" asked of someone who only ever said "Winter is my favourite
 * season": a memory naming a favourite of another kind is not about the question, though it shares
 * its "favourite" (「我最喜欢哪家餐厅」 and 「我最喜欢的季节是冬天」 alike). Recall answers such a
 * question only from memories that name no other kind of favourite ("Nopa is my favourite", "My
 * favourite restaurant is Nopa" still answer). Pure; each pattern is a fixed phrase followed by a
 * bounded run (linear).
 */

/** "favourite restaurant", "favorite kind of music": the kind is the word (or two) after it. */
const EN_KIND = /\bfavou?rite\s{1,3}(?:kind\s{1,3}of\s{1,3}|type\s{1,3}of\s{1,3}|sort\s{1,3}of\s{1,3})?([a-z]{2,20})/i;
/** 「我最喜欢哪家餐厅」「最喜欢的季节是」: the kind after 最喜欢 and a word that asks or links. */
const ZH_ASKED = /最喜欢(?:的|哪家|哪个|哪种|哪一|什么)(\p{Script=Han}{2,3}?)(?:是|呢|？|\?|$)/u;
const ZH_STATED = /最喜欢的(\p{Script=Han}{1,4}?)(?:是|就是)/u;

const HAN = /\p{Script=Han}/u;

/** Words after "favourite" that are not a kind ("my favourite is…", "favourite thing to do"). */
const NOT_KINDS = new Set(["is", "was", "are", "thing", "things", "one", "ones", "part", "of", "to", "in", "on", "at"]);

const enKind = (text: string): string | null => {
  const kind = EN_KIND.exec(text)?.[1]?.toLowerCase() ?? null;
  return kind === null || NOT_KINDS.has(kind) ? null : kind.replace(/s$/, "");
};

/** The kind of favourite a question asks for ("restaurant", 「餐厅」); null when it asks for none. */
export function askedFavourite(query: string): string | null {
  return enKind(query) ?? ZH_ASKED.exec(query)?.[1] ?? null;
}

/**
 * Whether `content` names a favourite of a kind other than `kind`, one the question (`query`) does not
 * name anywhere ("Grace favourite tea biscuit" asks about biscuits too).
 */
export function namesOtherFavourite(content: string, kind: string, query = ""): boolean {
  const stated = enKind(content) ?? ZH_STATED.exec(content)?.[1] ?? null;
  if (stated !== null && query.toLowerCase().includes(stated)) return false;
  // A kind in the other language is not compared: "My favourite restaurant is Nopa" may answer 「我最喜欢哪家餐厅」.
  if (stated === null || stated === kind || HAN.test(stated) !== HAN.test(kind)) return false;
  return !content.toLowerCase().includes(kind);
}
