/**
 * @module memory/entities/relation-words
 * The words that tie a name to the user ("my sister Ana", 「我表哥李明」): family, friends, work,
 * pets, each with the predicate its relation gets (`sister_of`) and the kind of entity it names.
 * English and Chinese. Data only; entity-rules-en.ts and entity-rules-zh.ts use them.
 */
import type { EntityKind } from "./entity-types";

export interface RelationWord {
  predicate: string;
  kind: EntityKind;
}

const person = (predicate: string): RelationWord => ({ predicate, kind: "person" });
const pet: RelationWord = { predicate: "pet_of", kind: "pet" };

/** English relation words, lower case; two-word ones ("best friend") are listed whole. */
export const EN_RELATIONS: ReadonlyMap<string, RelationWord> = new Map([
  ...["sister", "brother", "mother", "father", "wife", "husband", "partner", "son", "daughter", "cousin"].map(
    (w) => [w, person(`${w}_of`)] as const,
  ),
  ...["aunt", "uncle", "niece", "nephew", "grandmother", "grandfather", "fiance", "fiancé", "fiancée"].map(
    (w) => [w, person(`${w.startsWith("fianc") ? "fiance" : w}_of`)] as const,
  ),
  ["mom", person("mother_of")],
  ["mum", person("mother_of")],
  ["mama", person("mother_of")],
  ["dad", person("father_of")],
  ["papa", person("father_of")],
  ["grandma", person("grandmother_of")],
  ["grandpa", person("grandfather_of")],
  ["boyfriend", person("boyfriend_of")],
  ["girlfriend", person("girlfriend_of")],
  ["friend", person("friend_of")],
  ["best friend", person("friend_of")],
  ["closest friend", person("friend_of")],
  ["close friend", person("friend_of")],
  ["roommate", person("roommate_of")],
  ["flatmate", person("roommate_of")],
  ["housemate", person("roommate_of")],
  ["neighbor", person("neighbor_of")],
  ["neighbour", person("neighbor_of")],
  ["boss", person("boss_of")],
  // One person to the user, however they call them: "my manager" is asked of as "my boss".
  ["manager", person("boss_of")],
  ["supervisor", person("boss_of")],
  ["colleague", person("colleague_of")],
  ["coworker", person("colleague_of")],
  ["co-worker", person("colleague_of")],
  ["mentor", person("mentor_of")],
  ["therapist", person("therapist_of")],
  ["doctor", person("doctor_of")],
  ["teacher", person("teacher_of")],
  ...["mother", "father", "sister", "brother", "son", "daughter"].map(
    (w) => [`${w}-in-law`, person(`${w}_in_law_of`)] as const,
  ),
  ["kid", person("child_of")],
  ["child", person("child_of")],
  ...["dog", "cat", "puppy", "kitten", "parrot", "hamster", "rabbit", "bunny", "horse", "turtle", "bird", "pet"].map(
    (w) => [w, pet] as const,
  ),
]);

/** Chinese relation words; the longest are tried first where one contains another (表哥 before 哥). */
export const ZH_RELATIONS: ReadonlyMap<string, RelationWord> = new Map([
  ...(
    [
      ["表哥", "cousin_of"],
      ["表姐", "cousin_of"],
      ["表弟", "cousin_of"],
      ["表妹", "cousin_of"],
      ["堂哥", "cousin_of"],
      ["堂姐", "cousin_of"],
      ["堂弟", "cousin_of"],
      ["堂妹", "cousin_of"],
      ["哥哥", "brother_of"],
      ["弟弟", "brother_of"],
      ["姐姐", "sister_of"],
      ["妹妹", "sister_of"],
      ["妈妈", "mother_of"],
      ["母亲", "mother_of"],
      ["爸爸", "father_of"],
      ["父亲", "father_of"],
      ["老婆", "wife_of"],
      ["妻子", "wife_of"],
      ["老公", "husband_of"],
      ["丈夫", "husband_of"],
      ["先生", "husband_of"],
      ["太太", "wife_of"],
      ["儿子", "son_of"],
      ["女儿", "daughter_of"],
      ["男朋友", "boyfriend_of"],
      ["女朋友", "girlfriend_of"],
      ["朋友", "friend_of"],
      ["闺蜜", "friend_of"],
      ["好朋友", "friend_of"],
      ["好友", "friend_of"],
      ["发小", "friend_of"],
      ["死党", "friend_of"],
      ["对象", "partner_of"],
      ["男友", "boyfriend_of"],
      ["女友", "girlfriend_of"],
      ["上司", "boss_of"],
      ["老妈", "mother_of"],
      ["老爸", "father_of"],
      ["哥们", "friend_of"],
      ["同学", "classmate_of"],
      ["老同学", "classmate_of"],
      ["师兄", "schoolmate_of"],
      ["师姐", "schoolmate_of"],
      ["师弟", "schoolmate_of"],
      ["师妹", "schoolmate_of"],
      ["学长", "schoolmate_of"],
      ["学姐", "schoolmate_of"],
      ["同事", "colleague_of"],
      ["老板", "boss_of"],
      ["领导", "boss_of"],
      ["室友", "roommate_of"],
      ["邻居", "neighbor_of"],
      ["爷爷", "grandfather_of"],
      ["奶奶", "grandmother_of"],
      ["外公", "grandfather_of"],
      ["外婆", "grandmother_of"],
      ["叔叔", "uncle_of"],
      ["舅舅", "uncle_of"],
      ["阿姨", "aunt_of"],
      ["姑姑", "aunt_of"],
      ["老师", "teacher_of"],
      ["导师", "mentor_of"],
      ["婆婆", "mother_in_law_of"],
      ["岳母", "mother_in_law_of"],
      ["丈母娘", "mother_in_law_of"],
      ["公公", "father_in_law_of"],
      ["岳父", "father_in_law_of"],
      ["老丈人", "father_in_law_of"],
      ["嫂子", "sister_in_law_of"],
      ["弟媳", "sister_in_law_of"],
      ["姐夫", "brother_in_law_of"],
      ["妹夫", "brother_in_law_of"],
    ] as const
  ).map(([w, p]) => [w, person(p)] as const),
  ...["小狗", "小猫", "狗狗", "猫咪", "狗", "猫", "兔子", "鹦鹉", "仓鼠"].map((w) => [w, pet] as const),
]);

/**
 * The immediate family said once (「我哥叫阿峰」「我妈」), each with the doubled word ZH_RELATIONS holds
 * and an alias is stored and looked up by (哥哥, 妈妈). Not 奶 (牛奶) or 爷.
 */
export const ZH_SAID_ONCE: Readonly<Record<string, string>> = {
  哥: "哥哥",
  姐: "姐姐",
  弟: "弟弟",
  妹: "妹妹",
  爸: "爸爸",
  妈: "妈妈",
};
/** Those characters as a regex character class: `[哥姐弟妹爸妈]`. */
export const ZH_SAID_ONCE_CLASS = `[${Object.keys(ZH_SAID_ONCE).join("")}]`;
