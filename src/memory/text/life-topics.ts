/**
 * @module memory/text/life-topics
 * The areas of a life a person asks about in their own words — where they live, where they work,
 * who they are with, what they eat, drink, how they sleep, exercise, commute, their home's size and
 * rent, leave, pay, contact details, car, pet, school, body — and whether a statement speaks of one.
 * "Where do I live?" shares no word with "I moved to Munich last month"; both are about `home`.
 * Recall's topic channel (recall/topic-channel.ts) uses it to bring the statements of the asked area
 * and to rank the newest first (the current value of a thing a life changes). Cues are whole words
 * (English, unstemmed, so "seeing" is not "see") or phrases and Chinese substrings; every match is a
 * set lookup or `includes` (linear). Pure.
 */

import { queryTokens } from "./tokenize";

export type LifeTopic =
  | "home"
  | "work"
  | "partner"
  | "diet"
  | "sleep"
  | "morning"
  | "exercise"
  | "commute"
  | "drink"
  | "home-size"
  | "rent"
  | "leave"
  | "pay"
  | "contact"
  | "car"
  | "pet"
  | "school"
  | "body"
  | "origin"
  | "allergy"
  | "kids"
  | "birthday"
  | "language"
  | "name";

interface Cues {
  /** Whole English words (lower case) or phrases (with a space), and Chinese substrings. */
  en: readonly string[];
  zh: readonly string[];
}

interface TopicCues {
  /** How a question asks about the area. */
  ask: Cues;
  /** How a statement speaks of it. */
  state: Cues;
  /** Words that make a question about something else ("where was I born" is not about home now). */
  not?: Cues;
  /**
   * Words that only find statements to check, for a state cue made of stop words ("I'm with Robin
   * now, things with Taylor ended": "i'm with" has no word BM25 keeps).
   */
  find?: readonly string[];
}

/** A list of cues written as one string, "|" between them (a cue may hold spaces: "first day at"). */
const w = (cues: string): readonly string[] => cues.split("|");

/** Common job titles: "I'm a data analyst at Greenleaf" speaks of work without the word. */
const JOB_TITLES_EN = w(
  "analyst|engineer|developer|designer|teacher|nurse|doctor|lawyer|accountant|manager|consultant|writer|editor|chef|cook|driver|scientist|researcher|copywriter|paramedic|pharmacist|architect|programmer|librarian|barista|electrician|plumber|photographer|professor|lecturer|dentist|surgeon|cashier|clerk|receptionist|paralegal|translator|journalist",
);
const JOB_TITLES_ZH = w(
  "工程师|分析师|设计师|律师|会计|医生|护士|老师|教师|经理|助理|主管|总监|程序员|销售|行政|公务员|记者|编辑|厨师|司机|研究员|产品经理|运营|客服|店长",
);

const TOPICS: Record<LifeTopic, TopicCues> = {
  home: {
    ask: {
      en: w("live|lives|living|home|based|reside|address|city|town|where am i"),
      zh: w("住|家在|哪个城市|哪座城市|什么城市|在哪生活|居住|定居|人在哪|在哪儿生活"),
    },
    state: {
      en: w(
        "live|lives|living|lived|home|moved|move|moving|relocated|relocating|rent a|rent an|renting|flat|apartment|house|based|settled|reside|packed up|neighbourhood|neighborhood",
      ),
      // Renting a home, not the rent (「房租四千五」 is the rent area's): 租了, 租房, 合租.
      zh: w("住|搬|家在|定居|租了|租房|租的|合租|租住|安家|落户|落脚|安顿|生活"),
    },
    not: {
      en: w("born|grew|grow|raised|hometown|live for|for a living|earn a living|make a living"),
      zh: w("出生|长大|老家|籍贯"),
    },
  },
  work: {
    ask: {
      en: w("work|working|job|employer|employed|company|occupation|profession|career|for a living|earn a living|firm"),
      zh: w("工作|上班|雇主|公司|职业|哪一行|做什么的|单位|就职|干什么的|干哪行|什么行业|东家|老东家"),
    },
    state: {
      en: [
        ...w(
          "work|works|working|worked|job|employer|employed|company|hired|joined|offer|position|role|career|firm|first day at|started at|starting at|start at|intern|promoted|as a|as an",
        ),
        ...JOB_TITLES_EN,
      ],
      zh: [
        ...w("上班|工作|入职|报到|公司|就职|跳槽|职位|岗位|单位|辞职|离职|下家|转行|任职|的第一天"),
        ...JOB_TITLES_ZH,
      ],
    },
    not: {
      en: w(
        "get to work|go to work|travel to work|commute|cycle to work|bike to work|walk to work|drive to work|ride to work|bus to work|train to work|metro to work|subway to work|tube to work|tram to work|cycling to work|walking to work|driving to work|appointment|check-up|checkup",
      ),
      zh: w("通勤|怎么上班|怎么去上班|怎么去公司|怎么去单位"),
    },
  },
  partner: {
    ask: {
      en: w(
        "partner|relationship|seeing|dating|girlfriend|boyfriend|wife|husband|spouse|married|other half|significant other|fiance|fiancee|fiancé|fiancée",
      ),
      zh: w("对象|男朋友|女朋友|男友|女友|老公|老婆|伴侣|另一半|恋爱|在一起|爱人|丈夫|妻子"),
    },
    state: {
      en: w(
        "partner|relationship|seeing|dating|girlfriend|boyfriend|wife|husband|spouse|married|broke up|engaged|fiance|fiancee|fiancé|fiancée|moved in together|i'm with|i am with|split up|separated|divorced",
      ),
      zh: w("对象|男朋友|女朋友|男友|女友|老公|老婆|伴侣|另一半|恋爱|在一起|分手|结婚|订婚|爱人|丈夫|妻子"),
    },
    not: { en: w("business partner"), zh: w("合伙人") },
    find: w("ended|now|things"),
  },
  diet: {
    ask: { en: w("diet|vegetarian|vegan|meat|eat|eating"), zh: w("饮食|吃什么|吃素|忌口|吃肉") },
    state: {
      en: w("diet|vegetarian|vegan|pescatarian|keto|meat|gluten|dairy|plant-based|sugar|carbs|eat|eating"),
      zh: w("吃素|素食|饮食|不吃肉|戒糖|节食|轻食|吃肉|低碳"),
    },
    not: { en: w("allergic|allergy"), zh: w("过敏") },
  },
  sleep: {
    ask: { en: w("sleep|bed|bedtime|asleep|turn in|wake|wake up"), zh: w("睡|起床|休息|作息|上床") },
    state: {
      en: w("sleep|sleeping|bed|bedtime|asleep|wake|night owl|early bird|lights out"),
      zh: w("睡|起床|熬夜|早起|作息|上床"),
    },
  },
  morning: {
    ask: { en: w("morning|mornings|breakfast|first thing|early-morning"), zh: w("早上|早晨|早饭|早餐|每天早|一早") },
    state: { en: w("morning|mornings|breakfast|first thing"), zh: w("早上|早晨|早饭|早餐|每天早|一早|晨") },
  },
  exercise: {
    ask: {
      en: w("exercise|fit|fitness|workout|work out|sport|sports|gym|active|training|keep fit|stay fit|in shape"),
      zh: w("锻炼|运动|健身"),
    },
    state: {
      en: w(
        "run|runs|running|jog|jogging|swim|swimming|gym|yoga|pilates|cycling|cycle|hike|hiking|workout|exercise|climbing|tennis|football|soccer|basketball|5k|10k|lifting|marathon|dance|dancing|boxing|rowing",
      ),
      zh: w("跑步|游泳|健身|瑜伽|锻炼|运动|骑行|爬山|打球|羽毛球|篮球|足球|跳舞|普拉提|夜跑|晨跑"),
    },
  },
  commute: {
    ask: {
      en: w("commute|commuting|get to work|go to work|get to the office|travel to work|transport|transportation"),
      zh: w("通勤|交通工具|怎么上班|怎么去上班|怎么去公司|上班怎么"),
    },
    state: {
      en: w("commute|commuting|subway|metro|bus|train|tram|bike|cycle|cycling|drive|car|walk|scooter|e-bike"),
      zh: w("通勤|地铁|公交|骑|开车|电动车|自行车|步行|打车"),
    },
  },
  drink: {
    ask: { en: w("drink|drinks|coffee|tea|beverage"), zh: w("喝") },
    state: { en: w("drink|drinks|drinking|coffee|tea|oolong|latte|espresso|matcha|juice"), zh: w("喝|茶|咖啡") },
  },
  "home-size": {
    ask: { en: w("how big|floor area|square|size of my|how large"), zh: w("多少平|面积|多大") },
    state: { en: w("square|sqm|m2|m²|sq"), zh: w("平米|平方|多少平|平的|平，|平。") },
  },
  rent: {
    ask: { en: w("rent|housing cost|housing costs|mortgage"), zh: w("房租|住房开销|租金|月租|房贷|租房") },
    state: { en: w("rent|mortgage"), zh: w("房租|租金|月租|房贷") },
  },
  leave: {
    ask: { en: w("leave|holiday|holidays|vacation|days off|pto"), zh: w("假期|年假|休假|几天假") },
    state: { en: w("leave|holiday|holidays|vacation|days off|pto"), zh: w("假期|年假|休假|天假") },
  },
  pay: {
    ask: { en: w("salary|earn|income|paid|wage|wages"), zh: w("工资|薪水|收入|月薪|年薪|挣多少") },
    state: { en: w("salary|earn|earns|income|paid|wage|wages|raise"), zh: w("工资|薪水|收入|月薪|年薪|涨薪") },
  },
  contact: {
    ask: { en: w("phone|mobile|email|e-mail|contact|contacted|reach me|call me"), zh: w("手机|电话|邮箱|联系|微信") },
    state: {
      en: w("phone|mobile|email|e-mail|number|@|texts|texting|text message|whatsapp|phone calls|calls"),
      zh: w("手机|电话|邮箱|微信|号码|发消息|打电话"),
    },
  },
  car: {
    ask: { en: w("car|vehicle|drive"), zh: w("车") },
    state: { en: w("car|vehicle|drive|drives|motorbike"), zh: w("车") },
  },
  pet: {
    ask: { en: w("pet|pets|dog|cat|puppy|kitten"), zh: w("宠物|狗|猫") },
    state: { en: w("pet|pets|dog|cat|puppy|kitten"), zh: w("宠物|狗|猫") },
  },
  school: {
    ask: { en: w("study|studied|school|university|college|degree|major|uni"), zh: w("大学|学校|读书|专业|毕业|学历") },
    state: {
      en: w("study|studied|studying|school|university|college|degree|major|graduated|uni"),
      zh: w("大学|学校|读书|专业|毕业|学历|读研"),
    },
  },
  body: {
    ask: { en: w("height|tall|weigh|weight"), zh: w("身高|多高|体重|个子|个头|多重|几斤") },
    state: { en: w("tall|height|cm|weigh|weight|kg"), zh: w("身高|体重|公斤|一米|个子|个头|厘米|斤") },
  },
  // Where one is from: home's "not" words are this area's own.
  origin: {
    ask: {
      en: w("hometown|home town|grew up|raised|born|where am i from|where i'm from|come from|originally"),
      zh: w("老家|家乡|哪里人|哪儿人|出生|长大|籍贯"),
    },
    state: {
      en: w("hometown|home town|grew up|raised|born|come from|originally from|i'm from|i am from"),
      zh: w("老家|家乡|出生|长大|籍贯|土生土长"),
    },
  },
  allergy: {
    ask: {
      en: w(
        "allergic|allergy|allergies|must not eat|can't eat|cannot eat|not allowed to eat|intolerant|avoid eating|food i should avoid|foods i should avoid|should not eat|shouldn't eat|safe for me to eat",
      ),
      zh: w("过敏|不能吃|不能碰|忌口|不能喝|不该吃|要避开"),
    },
    state: {
      en: w("allergic|allergy|allergies|intolerant|intolerance|can't eat|cannot eat|can't have|epipen|coeliac|celiac"),
      zh: w("过敏|不能吃|不能碰|忌口|不耐受"),
    },
  },
  kids: {
    // Asked as a count or a whole ("how many kids"); a question naming a son or a daughter is about that person.
    ask: { en: w("children|kids|kid|child"), zh: w("孩子|小孩|娃") },
    state: {
      en: w("children|kids|kid|child|son|sons|daughter|daughters|twins|baby"),
      zh: w("孩子|儿子|女儿|小孩|娃|一儿一女|双胞胎"),
    },
  },
  birthday: {
    ask: { en: w("birthday|birth date|date of birth|born on"), zh: w("生日|出生日期") },
    state: { en: w("birthday|born on"), zh: w("生日") },
  },
  // One's own name: 「你好，我叫李娜」 answers 「我叫什么名字？」 (a question naming a relation is that person's).
  name: {
    ask: { en: w("my name|what am i called|what's my name|what is my name"), zh: w("我叫什么|我的名字|怎么称呼我") },
    state: {
      en: w("my name is|my name's|i'm called|i am called|call me|i go by"),
      zh: w("我叫|我的名字|名字叫|名字是"),
    },
    not: { en: w("her name|his name|their name"), zh: w("叫了|叫过|叫外卖|叫车|叫醒") },
  },
  language: {
    ask: { en: w("language|languages|speak"), zh: w("语言|外语|会说") },
    state: {
      en: w(
        "language|languages|speak|speaks|fluent|duolingo|japanese|spanish|french|german|mandarin|italian|korean|portuguese|arabic",
      ),
      zh: w("语言|外语|日语|英语|法语|德语|韩语|西班牙语|会说"),
    },
  },
};

const ALL_TOPICS = Object.keys(TOPICS) as LifeTopic[];

/** A text read once: its lower-cased words, and itself padded for phrase matching. */
interface ReadText {
  words: Set<string>;
  padded: string;
  raw: string;
}

const WORDS = /[a-z0-9²@][a-z0-9²'é-]*/g;

function read(text: string): ReadText {
  // "my partner's name" asks about the partner: the possessive is not part of the word.
  const lower = text.normalize("NFKC").toLowerCase().replaceAll("’", "'").replaceAll("'s ", " ");
  const words = new Set(lower.match(WORDS) ?? []);
  return { words, padded: ` ${lower.replace(/[^a-z0-9²@'é\u4e00-\u9fff-]+/g, " ")} `, raw: lower };
}

function hits(t: ReadText, cues: Cues, asked = false): boolean {
  for (const cue of cues.en) {
    if (cue.includes(" ") ? t.padded.includes(` ${cue} `) : t.words.has(cue)) return true;
    if (cue === "@" && t.raw.includes("@")) return true;
  }
  return cues.zh.some((cue) => (asked ? ownOccurrence(t.raw, cue) : t.raw.includes(cue)));
}

/**
 * The cue occurs not as someone else's: 「小芳的老公」 asks about 小芳's husband, 「我的老公」「我老公」 and
 * 「我目前的雇主」 (我 among the three characters before 的) about the asker's. One scan of the occurrences.
 */
function ownOccurrence(text: string, cue: string): boolean {
  for (let at = text.indexOf(cue); at !== -1; at = text.indexOf(cue, at + 1))
    if (text[at - 1] !== "的" || text.slice(Math.max(0, at - 4), at - 1).includes("我")) return true;
  return false;
}

/** First-person words: the speaker's own life ("I", "my", 「我」). */
const FIRST_PERSON = [
  "i",
  "i'm",
  "i've",
  "i'd",
  "i'll",
  "my",
  "me",
  "mine",
  "we",
  "we're",
  "we've",
  "our",
  "us",
  "myself",
];

/** The text speaks of the speaker's own life. */
export function firstPerson(text: string): boolean {
  const t = read(text);
  return FIRST_PERSON.some((w) => t.words.has(w)) || t.raw.includes("我");
}

/**
 * An agent asks about the person it serves in the third person: "where does the user live now?",
 * "user's employer", 「用户住在哪」. For a question that is the asker's own life too.
 */
const THE_USER = ["user", "users", "user's"];

/** The text is about the asker's own life: in the first person, or about "the user" (as agents save it too). */
export function asksOwnLife(question: string): boolean {
  const t = read(question);
  return firstPerson(question) || THE_USER.some((w) => t.words.has(w)) || t.raw.includes("用户");
}

/** The areas of life a question asks about; none for a question about something else. */
export function topicsAsked(question: string): LifeTopic[] {
  const t = read(question);
  return ALL_TOPICS.filter((topic) => {
    const cues = TOPICS[topic];
    return hits(t, cues.ask, true) && !(cues.not && hits(t, cues.not));
  });
}

/**
 * Words that ask for a thing's value now: a question about the current value of an area ("where's home
 * right now?", 「我目前的雇主是谁」, "what time do I go to sleep?") holds them, the statement that
 * answers it need not.
 */
const NOW_WORDS =
  "now right currently current still moment these days nowadays present at the moment 目前 现在 如今 当前 还 眼下 " +
  // …and the words of asking for a habit's value: "what time do I go to sleep?", 「我几点睡觉」.
  "time what when go get do usually normally typically 几点 什么时候 一般 平时 通常 每天";

/** The words a question asks about these areas with: what a statement of the area answers without holding them. */
export function topicAskText(topics: readonly LifeTopic[]): string {
  return [NOW_WORDS, ...topics.flatMap((topic) => [...TOPICS[topic].ask.en, ...TOPICS[topic].ask.zh])].join(" ");
}

/** Whether a statement speaks of `topic`. */
export function statesTopic(statement: string, topic: LifeTopic): boolean {
  const t = read(statement);
  const cues = TOPICS[topic];
  return hits(t, cues.state) && !(cues.not && hits(t, cues.not));
}

/** The areas of life a statement speaks of ("I moved to Munich" → home). */
export function topicsStated(statement: string): LifeTopic[] {
  return ALL_TOPICS.filter((topic) => statesTopic(statement, topic));
}

/**
 * The words to search for statements of these areas (BM25 candidates, checked by statesTopic after),
 * in the language `like` is written in first: the search sends only the first 64 tokens, and one
 * area's English cues alone (work: titles and verbs) fill them, so a Chinese question sent none of its
 * own words. The other language's follow in what room is left.
 */
export function topicSearchText(topics: readonly LifeTopic[], like = ""): string {
  const en = topics.flatMap((topic) => [
    ...TOPICS[topic].state.en.filter((w) => /^[a-z]/.test(w)),
    ...(TOPICS[topic].find ?? []),
  ]);
  const zh = topics.flatMap((topic) => TOPICS[topic].state.zh);
  return (/\p{Script=Han}/u.test(like) ? [...zh, ...en] : [...en, ...zh]).join(" ");
}

/** Search words a statement search sends at most (bound parameters stay few). */
export const TOPIC_TERMS_MAX = 64;

/** The tokens of topicSearchText, at most TOPIC_TERMS_MAX: what the recall and write searches send. */
export function topicSearchTokens(topics: readonly LifeTopic[], like = ""): string[] {
  return queryTokens(topicSearchText(topics, like)).slice(0, TOPIC_TERMS_MAX);
}
