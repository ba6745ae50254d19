/**
 * @module scripts/lib/person-blocks
 * The hand-written building blocks of bench:person's scripted lives (person-lives.ts assembles them
 * with a fixed seed): what a person says about a life that changes, in English and in Chinese, each
 * with several phrasings, and the questions asked afterwards in other words than the ones saved.
 * Placeholders: {c1} {c2} cities, {co1} {co2} employers, {r1} a role, {n} {p} {p2} names, {rel} a
 * relation word, {when} a relative date. Every block carries a topic: a life never states two blocks
 * of one topic, and its abstention questions are drawn from topics it never mentions.
 * Text only; no I/O.
 */
import type { Lang } from "./person-data.ts";

/** How a relative date resolves against the day it was said (person-lives.ts resolveDate). */
export type DateRule =
  | { kind: "days"; n: number }
  | { kind: "weekday-next-week"; weekday: number }
  | { kind: "day-of-month"; day: number }
  | { kind: "end-of-month" }
  | { kind: "next-month-day"; day: number };

export interface Said {
  say: string;
  ask: string[];
  topic: string;
}

export interface Change {
  from: string;
  to: string;
  /** Phrases only the `from` and only the `to` sentence hold: they tell the two apart when one turn says both. */
  marks?: [string, string];
  /** Questions about the present. */
  now: string[];
  topic: string;
}

export interface Blocks {
  lang: Lang;
  personas: { name: string; slug: string }[];
  cities: string[];
  companies: string[];
  /** Roles as said after "as" (English with its article). */
  roles: string[];
  home: { from: string[]; to: string[]; now: string[]; before: string[] };
  job: { from: string[]; to: string[]; now: string[]; before: string[] };
  /** A habit and the switch; `join` says both in one turn ({from}, {to}: the two sentences). */
  habits: Change[];
  join: string[];
  /** A number stated, then corrected. */
  numbers: Change[];
  /** Relation words with how the person introduces them ({n}, {rel}) and how the question names them. */
  /** `gender`: m or f when the word or its sentences say it, else any. */
  relations: { rel: string; gender: "m" | "f" | "any"; link: string[]; ask: string[] }[];
  relNames: { m: string[]; f: string[] };
  /** Questions through a relation word ({rel}). */
  twoHop: string[];
  /** What a named person does, said without the relation word. */
  occupations: string[];
  partner: { names: string[]; from: string[]; to: string[]; now: string[] };
  pets: { say: string; ask: string[]; names: string[] }[];
  events: { say: string; ask: string[]; topic: string }[];
  whens: { text: string; rule: DateRule; tolerance?: number }[];
  prefs: Said[];
  singles: Said[];
  abstain: { ask: string; topic: string }[];
  replies: string[];
  openers: string[];
  /** What the assistant answers to an opener. */
  greetings: string[];
}

export const EN: Blocks = {
  lang: "en",
  personas: [
    { name: "Maya Patel", slug: "maya" },
    { name: "Daniel Weber", slug: "daniel" },
    { name: "Sofia Alvarez", slug: "sofia" },
    { name: "James O'Connor", slug: "james" },
    { name: "Aisha Rahman", slug: "aisha" },
    { name: "Lukas Novak", slug: "lukas" },
    { name: "Emma Lindqvist", slug: "emma" },
    { name: "Priya Nair", slug: "priya" },
    { name: "Oliver Grant", slug: "oliver" },
    { name: "Chloe Martin", slug: "chloe" },
    { name: "Samuel Okafor", slug: "samuel" },
    { name: "Hannah Schmidt", slug: "hannah" },
    { name: "Marco Rossi", slug: "marco" },
    { name: "Grace Kim", slug: "grace" },
    { name: "Ben Carter", slug: "ben" },
    { name: "Leila Haddad", slug: "leila" },
    { name: "Noah Fischer", slug: "noah" },
    { name: "Ines Costa", slug: "ines" },
    { name: "Ryan Walsh", slug: "ryan" },
    { name: "Zoe Turner", slug: "zoe" },
    { name: "Arjun Mehta", slug: "arjun" },
    { name: "Freya Olsen", slug: "freya" },
  ],
  cities: [
    "Lisbon",
    "Munich",
    "Porto",
    "Leeds",
    "Toronto",
    "Austin",
    "Melbourne",
    "Dublin",
    "Rotterdam",
    "Valencia",
    "Edinburgh",
    "Denver",
    "Krakow",
    "Seattle",
    "Bristol",
    "Montreal",
    "Gothenburg",
    "Lyon",
  ],
  companies: [
    "Northwind",
    "Zalando",
    "Foxglove Studio",
    "Meridian Health",
    "Bluefin Logistics",
    "Harbor Bank",
    "Pinecone Labs",
    "Larkspur Books",
    "Greenleaf Energy",
    "Copperline Games",
    "Atlas Insurance",
    "Saltmarsh Brewery",
  ],
  roles: [
    "a data analyst",
    "a nurse",
    "a product designer",
    "a backend developer",
    "an accountant",
    "a sous-chef",
    "a physiotherapist",
    "a project manager",
    "a copywriter",
    "a lab technician",
  ],
  home: {
    from: [
      "I live in {c1}.",
      "Home for me is a small flat in {c1}.",
      "I've been living in {c1} for about three years now.",
      "I rent a place in {c1}, close to the river.",
    ],
    to: [
      "I moved to {c2} last month.",
      "We finally relocated to {c2}; the boxes are still everywhere.",
      "Big news: I've moved to {c2}, the keys were handed over last week.",
      "I packed up and moved to {c2} for a fresh start.",
    ],
    now: [
      "Which city am I based in these days?",
      "Where's home for me right now?",
      "Where do I live?",
      "What city should you assume I'm in?",
    ],
    before: [
      "Where was I living before the move?",
      "Which city did I leave when I relocated?",
      "Where did I use to live?",
    ],
  },
  job: {
    from: [
      "I work at {co1} as {r1}.",
      "I'm {r1} at {co1}.",
      "I work as {r1} for {co1}.",
      "I've been at {co1} for two years, working as {r1}.",
    ],
    to: [
      "I started a new job at {co2} this week.",
      "I accepted an offer from {co2} and began there on Monday.",
      "Today was my first day at {co2}!",
      "I handed in my notice; I'm with {co2} now.",
    ],
    now: [
      "Who is my employer at the moment?",
      "Which company am I working for now?",
      "Where do I work?",
      "Who pays my salary these days?",
    ],
    before: [
      "Which company was I at before my current one?",
      "Who did I work for previously?",
      "Where was my old job?",
    ],
  },
  habits: [
    {
      from: "I run 5k every morning.",
      marks: ["5k", "swim"],
      to: "Actually I stopped running, I swim now.",
      now: ["What exercise do I do in the mornings?", "How do I keep fit?"],
      topic: "exercise",
    },
    {
      from: "I drink oolong every morning.",
      marks: ["oolong", "green tea"],
      to: "I switched to green tea, it's gentler on my stomach.",
      now: ["What's my morning drink?", "Which tea do I have first thing?"],
      topic: "morning-drink",
    },
    {
      from: "I cycle to the office every day.",
      marks: ["cycle", "train"],
      to: "These days I take the train to work instead of the bike.",
      now: ["How do I get to work?", "What's my commute like, bike or something else?"],
      topic: "commute",
    },
    {
      from: "I do twenty minutes of yoga before breakfast.",
      marks: ["twenty minutes", "walk"],
      to: "I've swapped the yoga for a morning walk with a podcast.",
      now: ["What do I do before breakfast?", "What's my early-morning routine?"],
      topic: "routine",
    },
    {
      from: "I usually go to bed around 1 am.",
      marks: ["1 am", "at 11"],
      to: "I've been going to bed at 11 since the new year.",
      now: ["What time do I go to sleep?", "When do I turn in at night?"],
      topic: "sleep",
    },
    {
      from: "I eat meat pretty much every day.",
      marks: ["pretty much", "vegetarian"],
      to: "I've gone vegetarian, no more meat for me.",
      now: ["What's my diet like?", "Do I eat meat?"],
      topic: "diet",
    },
  ],
  join: ["{from} … {to}", "{from} Well, that was true until recently. {to}", "{from} Hmm, scratch that. {to}"],
  numbers: [
    {
      from: "My flat is 68 square metres.",
      to: "Correction: I measured again and the flat is 74 square metres, not 68.",
      now: ["How big is my apartment?", "What's the floor area of my place?"],
      topic: "flat-size",
    },
    {
      from: "My rent is 1,150 euros a month.",
      to: "I misspoke about the rent: it's 1,350 euros a month.",
      now: ["How much do I pay for housing each month?", "What does my rent cost?"],
      topic: "rent",
    },
    {
      from: "My commute takes about 25 minutes.",
      to: "I timed it properly, the commute is closer to 40 minutes.",
      now: ["How long is my journey to the office?", "How much time do I spend travelling to work?"],
      topic: "commute",
    },
    {
      from: "I'm 1.78 m tall.",
      to: "Oops, I'm 1.82 m, not 1.78.",
      now: ["What's my height?", "How tall am I?"],
      topic: "height",
    },
    {
      from: "I have 3 weeks of holiday left this year.",
      to: "HR corrected me: I have 5 weeks of leave left, not 3.",
      now: ["How much annual leave do I still have?", "How many vacation weeks remain for me?"],
      topic: "leave",
    },
  ],
  relations: [
    {
      rel: "brother",
      gender: "m",
      link: ["My brother is called {n}.", "I have a younger brother, {n}."],
      ask: ["brother"],
    },
    { rel: "sister", gender: "f", link: ["My sister's name is {n}.", "{n} is my big sister."], ask: ["sister"] },
    {
      rel: "best friend",
      gender: "any",
      link: ["My best friend is {n}.", "{n} has been my best friend since school."],
      ask: ["best friend", "closest friend"],
    },
    { rel: "boss", gender: "any", link: ["My manager is {n}.", "I report to {n}, my boss."], ask: ["boss", "manager"] },
    {
      rel: "flatmate",
      gender: "any",
      link: ["I share the flat with {n}.", "My flatmate is {n}."],
      ask: ["flatmate", "roommate"],
    },
    {
      rel: "cousin",
      gender: "any",
      link: ["My cousin {n} lives nearby.", "{n} is my cousin on my mum's side."],
      ask: ["cousin"],
    },
  ],
  twoHop: ["What does my {rel} do for work?", "What's my {rel}'s job?", "How does my {rel} earn a living?"],
  relNames: {
    m: ["Tom", "Jake", "Raj", "Ethan", "Felix", "Kofi"],
    f: ["Anna", "Lucy", "Mia", "Nora", "Sara", "Elena"],
  },
  occupations: [
    "{n} teaches chemistry at a secondary school.",
    "{n} works as a paramedic.",
    "{n} runs a little bakery in the old town.",
    "{n} is a civil engineer who designs bridges.",
    "{n} is a vet at an animal clinic.",
    "{n} flies cargo planes for a living.",
    "{n} does payroll at a hospital.",
  ],
  partner: {
    names: ["Alex", "Jordan", "Sam", "Chris", "Robin", "Taylor", "Luca", "Ava"],
    from: ["I've been dating {p} for a few months.", "{p} and I just moved in together.", "{p} is my partner."],
    to: ["{p} and I broke up; I'm now seeing {p2}.", "I'm with {p2} now, things with {p} ended in spring."],
    now: ["Who am I in a relationship with?", "Who's my partner?", "Who am I seeing at the moment?"],
  },
  pets: [
    {
      say: "We adopted a rescue greyhound called {n}.",
      ask: ["What's the dog called?", "What did we name our dog?"],
      names: ["Biscuit", "Pepper", "Juno", "Rocket"],
    },
    {
      say: "I have a ginger cat named {n}.",
      ask: ["What's my cat's name?", "What is the cat called?"],
      names: ["Mango", "Olive", "Tofu", "Pixel"],
    },
    {
      say: "My kids talked me into two rabbits; the fluffy one is {n}.",
      ask: ["What's the fluffy rabbit called?"],
      names: ["Clover", "Bun", "Hazel"],
    },
  ],
  events: [
    {
      say: "I've got a dentist appointment {when}.",
      ask: ["When is my dental check-up?", "What day do I see the dentist?"],
      topic: "dentist",
    },
    {
      say: "I have a job interview {when}.",
      ask: ["When's my interview?", "What date is the interview?"],
      topic: "interview",
    },
    { say: "My sister's wedding is {when}.", ask: ["When is my sister getting married?"], topic: "wedding" },
    {
      say: "The car goes in for its service {when}.",
      ask: ["When is the car being serviced?", "What day is my car's maintenance?"],
      topic: "car-service",
    },
    {
      say: "There's a parent-teacher meeting at school {when}.",
      ask: ["When is the meeting with the teachers?"],
      topic: "school-meeting",
    },
    { say: "I'm flying out to see my parents {when}.", ask: ["When do I fly to visit my parents?"], topic: "flight" },
  ],
  whens: [
    { text: "tomorrow", rule: { kind: "days", n: 1 } },
    { text: "the day after tomorrow", rule: { kind: "days", n: 2 } },
    { text: "in three days", rule: { kind: "days", n: 3 } },
    { text: "on Friday next week", rule: { kind: "weekday-next-week", weekday: 5 } },
    { text: "on Tuesday next week", rule: { kind: "weekday-next-week", weekday: 2 } },
    { text: "in two weeks", rule: { kind: "days", n: 14 } },
    { text: "on the 20th", rule: { kind: "day-of-month", day: 20 } },
    { text: "at the end of the month", rule: { kind: "end-of-month" }, tolerance: 2 },
  ],
  prefs: [
    {
      say: "I can't stand cilantro, it tastes like soap to me.",
      ask: ["Are there any herbs I dislike?", "Anything I'd want left out of a salsa?"],
      topic: "cilantro",
    },
    {
      say: "I always pick an aisle seat when I fly.",
      ask: ["Which seat should you book for me on a plane?"],
      topic: "seat",
    },
    { say: "I take my coffee black, no sugar.", ask: ["How do I like my coffee?"], topic: "coffee" },
    {
      say: "I'd rather read paper books than e-books.",
      ask: ["Should you get me a Kindle or a printed copy?", "Do I prefer e-readers?"],
      topic: "books",
    },
    {
      say: "I love hiking in the mountains on weekends.",
      ask: ["What do I enjoy doing on Saturdays and Sundays?"],
      topic: "weekend",
    },
    {
      say: "Horror films aren't for me; I like documentaries.",
      ask: ["What sort of movies should you recommend me?"],
      topic: "films",
    },
    { say: "I prefer texting to phone calls.", ask: ["How do I like to be contacted?"], topic: "contact" },
    { say: "Winter is my favourite season.", ask: ["Which time of year do I like best?"], topic: "season" },
    {
      say: "Spicy food is my weakness, the hotter the better.",
      ask: ["How much chilli can I handle?", "Do I like mild dishes?"],
      topic: "spicy",
    },
  ],
  singles: [
    {
      say: "My birthday is on 12 March.",
      ask: ["When's my birthday?", "What day do I celebrate turning a year older?"],
      topic: "birthday",
    },
    {
      say: "I'm allergic to peanuts.",
      ask: ["Do I have any food allergies?", "Is there anything I must not eat?"],
      topic: "allergy",
    },
    { say: "I drive a 2016 Honda Civic.", ask: ["What car do I have?", "Which vehicle do I own?"], topic: "car" },
    { say: "I'm learning Japanese on Duolingo.", ask: ["Which language am I studying?"], topic: "language" },
    { say: "I play the cello in an amateur orchestra.", ask: ["What instrument do I play?"], topic: "instrument" },
    { say: "My blood type is O negative.", ask: ["What's my blood group?"], topic: "blood" },
    { say: "I support Arsenal.", ask: ["Which football club do I follow?"], topic: "team" },
    {
      say: "I grew up in a village near Cork.",
      ask: ["Where was I raised?", "Where's my hometown?"],
      topic: "hometown",
    },
    { say: "I have two kids, Ella and Sam.", ask: ["How many children do I have?"], topic: "kids" },
    { say: "I studied history at Leeds.", ask: ["What was my degree in?"], topic: "study" },
    { say: "I'm training for a half marathon in October.", ask: ["What race am I preparing for?"], topic: "race" },
    {
      say: "I volunteer at the food bank on Thursdays.",
      ask: ["Where do I help out during the week?"],
      topic: "volunteer",
    },
  ],
  abstain: [
    { ask: "What's my cat called?", topic: "pet" },
    { ask: "What's my blood type?", topic: "blood" },
    { ask: "Which instrument do I play?", topic: "instrument" },
    { ask: "Where did I go to university?", topic: "study" },
    { ask: "What car do I drive?", topic: "car" },
    { ask: "What am I allergic to?", topic: "allergy" },
    { ask: "What's my partner's name?", topic: "partner" },
    { ask: "Which football team do I support?", topic: "team" },
    { ask: "Which languages am I learning?", topic: "language" },
    { ask: "When is my birthday?", topic: "birthday" },
    { ask: "How many children do I have?", topic: "kids" },
    { ask: "What's my favourite restaurant?", topic: "restaurant" },
    { ask: "Which gym am I a member of?", topic: "gym" },
    { ask: "What's my shoe size?", topic: "shoes" },
    { ask: "Where did I spend my last holiday?", topic: "holiday" },
    { ask: "When does my passport expire?", topic: "passport" },
    { ask: "What does my uncle do for a living?", topic: "rel:uncle" },
    { ask: "What's my grandmother's name?", topic: "rel:grandmother" },
  ],
  replies: [
    "Got it.",
    "Thanks for telling me, noted.",
    "That sounds like a big change!",
    "Good to know.",
    "Congratulations!",
    "Oh, how exciting.",
    "I'll keep that in mind.",
    "Makes sense.",
    "Nice, tell me more whenever you like.",
  ],
  openers: ["Hi again!", "Morning. Quick catch-up?", "Hey, got a minute?", "Back again, lots happened."],
  greetings: ["Sure, go ahead.", "Always. What's new?", "Of course, I'm listening.", "Hi! Tell me everything."],
};

export const ZH: Blocks = {
  lang: "zh",
  personas: [
    { name: "林晓", slug: "linxiao" },
    { name: "王芳", slug: "wangfang" },
    { name: "陈浩", slug: "chenhao" },
    { name: "张雨婷", slug: "zhangyuting" },
    { name: "刘洋", slug: "liuyang" },
    { name: "赵敏", slug: "zhaomin" },
    { name: "孙磊", slug: "sunlei" },
    { name: "周佳怡", slug: "zhoujiayi" },
    { name: "吴凡", slug: "wufan" },
    { name: "郑欣", slug: "zhengxin" },
    { name: "黄志强", slug: "huangzhiqiang" },
    { name: "何静", slug: "hejing" },
    { name: "马骁", slug: "maxiao" },
    { name: "许诺", slug: "xunuo" },
    { name: "高远", slug: "gaoyuan" },
    { name: "罗丹", slug: "luodan" },
    { name: "唐糖", slug: "tangtang" },
    { name: "徐子涵", slug: "xuzihan" },
    { name: "梁晨", slug: "liangchen" },
    { name: "宋雪", slug: "songxue" },
    { name: "韩冬", slug: "handong" },
    { name: "冯琳", slug: "fenglin" },
  ],
  cities: [
    "北京",
    "杭州",
    "成都",
    "深圳",
    "上海",
    "南京",
    "武汉",
    "西安",
    "厦门",
    "苏州",
    "长沙",
    "青岛",
    "重庆",
    "广州",
  ],
  companies: [
    "网易",
    "美团",
    "招商银行",
    "顺丰",
    "蔚来",
    "青柚传媒",
    "市图书馆",
    "一家做跨境电商的公司",
    "华为",
    "一所国际学校",
    "携程",
    "一家律所",
  ],
  roles: ["产品经理", "会计", "前端工程师", "护士", "语文老师", "平面设计师", "销售", "律师助理", "数据分析师", "行政"],
  home: {
    from: [
      "我住在{c1}。",
      "我现在在{c1}生活，已经五年了。",
      "我家在{c1}，租的房子离公司很近。",
      "我一直在{c1}住，挺习惯的。",
    ],
    to: [
      "我搬到{c2}了。",
      "上个月我们全家搬去了{c2}。",
      "我已经搬到{c2}啦，新家还在收拾。",
      "折腾了半年，终于在{c2}安顿下来了。",
    ],
    now: ["我住在哪", "我现在在哪个城市生活？", "我目前定居在哪里？", "我现在人在哪座城市？"],
    before: ["我以前住在哪", "搬家之前我住在哪个城市？", "我原来在哪儿生活？"],
  },
  job: {
    from: ["我在{co1}上班，做{r1}。", "我是{co1}的{r1}。", "我在{co1}干了两年{r1}了。", "我的工作是在{co1}当{r1}。"],
    to: [
      "我跳槽去{co2}了，这周刚入职。",
      "我换工作了，现在在{co2}。",
      "今天是我在{co2}的第一天！",
      "我已经离职了，下家是{co2}。",
    ],
    now: ["我现在在哪家公司上班？", "我目前的雇主是谁？", "我在哪工作", "我眼下在哪个单位？"],
    before: ["我上一份工作是在哪家公司？", "换工作之前我在哪里上班？", "我之前的东家是哪家？"],
  },
  habits: [
    {
      from: "我每天坐地铁上班。",
      marks: ["地铁", "电动车"],
      to: "现在改骑电动车了。",
      now: ["我平时怎么去公司？", "我通勤用什么交通工具？"],
      topic: "commute",
    },
    {
      from: "我每天早上跑步五公里。",
      marks: ["五公里", "游泳"],
      to: "最近不跑了，改成去游泳。",
      now: ["我早上做什么运动？", "我靠什么锻炼身体？"],
      topic: "exercise",
    },
    {
      from: "我每天早上喝一杯美式。",
      marks: ["美式", "豆浆"],
      to: "现在戒咖啡了，早上改喝豆浆。",
      now: ["我早餐喝什么？", "我早上来一杯什么饮料？"],
      topic: "morning-drink",
    },
    {
      from: "我晚上一般一点才睡。",
      marks: ["一点才", "十一点"],
      to: "现在十一点就上床了。",
      now: ["我几点睡觉？", "我晚上什么时候休息？"],
      topic: "sleep",
    },
    {
      from: "我每个周六都去爬山。",
      marks: ["都去爬山", "学游泳"],
      to: "周六改成去学游泳了，山好久没爬了。",
      now: ["我周六一般干嘛？", "我每周六的安排是什么？"],
      topic: "weekend",
    },
    {
      from: "我顿顿都离不开肉。",
      marks: ["离不开肉", "吃素"],
      to: "我现在吃素了，肉基本不碰。",
      now: ["我的饮食习惯是怎样的？", "我吃荤吗？"],
      topic: "diet",
    },
  ],
  join: ["{from}……{to}", "{from}不过那是以前了，{to}", "{from}哦不对，{to}"],
  numbers: [
    {
      from: "我家房子八十五平米。",
      to: "刚才说错了，房子是九十五平米。",
      now: ["我家面积多大？", "我的房子有多少平？"],
      topic: "flat-size",
    },
    {
      from: "我每个月房租四千五。",
      to: "更正一下，房租是五千二一个月。",
      now: ["我租房一个月多少钱？", "我每月住房开销是多少？"],
      topic: "rent",
    },
    {
      from: "我身高一米七二。",
      to: "说错了，我一米七五。",
      now: ["我多高？", "我个子有多少？"],
      topic: "height",
    },
    {
      from: "我通勤要半小时。",
      to: "其实通勤要五十分钟左右，我今天掐表算了。",
      now: ["我上班路上花多久？", "从家到公司要多长时间？"],
      topic: "commute",
    },
    {
      from: "我今年还剩三天年假。",
      to: "问了人事，我其实还剩五天年假。",
      now: ["我还有几天假期可以休？", "我今年剩多少年假？"],
      topic: "leave",
    },
  ],
  relations: [
    { rel: "闺蜜", gender: "f", link: ["我闺蜜叫{n}。", "{n}是我闺蜜，认识十几年了。"], ask: ["闺蜜"] },
    { rel: "发小", gender: "any", link: ["我有个发小叫{n}。", "{n}是我发小，我们一个院子长大的。"], ask: ["发小"] },
    { rel: "表哥", gender: "m", link: ["我表哥叫{n}。", "{n}是我表哥，比我大五岁。"], ask: ["表哥"] },
    { rel: "哥哥", gender: "m", link: ["我哥叫{n}。", "我有个哥哥，叫{n}。"], ask: ["哥哥", "哥"] },
    { rel: "领导", gender: "m", link: ["我领导是{n}。", "{n}是我们组的领导，我直接向他汇报。"], ask: ["领导", "上司"] },
    { rel: "室友", gender: "f", link: ["我室友叫{n}。", "我和{n}合租，她是我室友。"], ask: ["室友"] },
  ],
  twoHop: ["我{rel}是做什么工作的？", "我{rel}干哪一行？", "我{rel}的职业是什么？"],
  relNames: {
    m: ["阿杰", "王磊", "老周", "大刘", "阿峰", "小北"],
    f: ["小雅", "思思", "婷婷", "欣欣", "蓉蓉", "陈晨"],
  },
  occupations: [
    "{n}在银行做理财经理。",
    "{n}在一所中学教化学。",
    "{n}自己开了家咖啡馆。",
    "{n}是急诊科医生，经常值夜班。",
    "{n}在一家游戏公司做美术。",
    "{n}在律所当律师。",
    "{n}在机场做地勤。",
  ],
  partner: {
    names: ["小宇", "阿晴", "周航", "林可", "安安", "子墨", "乐乐", "许言"],
    from: ["我和{p}在一起快一年了。", "我对象叫{p}。", "{p}是我对象，我们是大学同学。"],
    to: ["我和{p}分手了，现在的对象是{p2}。", "跟{p}已经分了，我现在和{p2}在一起。"],
    now: ["我对象是谁？", "我现在的另一半叫什么？", "我在和谁谈恋爱？"],
  },
  pets: [
    {
      say: "我们家养了一只柯基，叫{n}。",
      ask: ["我家狗叫什么名字？", "我们家的狗狗叫啥？"],
      names: ["豆豆", "旺财", "可乐", "团子"],
    },
    {
      say: "我养了只橘猫，名字叫{n}。",
      ask: ["我的猫叫啥？", "我家猫咪叫什么？"],
      names: ["橘子", "年糕", "咪咪", "胖虎"],
    },
    { say: "孩子非要养兔子，白的那只叫{n}。", ask: ["白兔子叫什么名字？"], names: ["雪球", "棉花", "小白"] },
  ],
  events: [
    { say: "我{when}要去看牙。", ask: ["我什么时候看牙医？", "我哪天去补牙？"], topic: "dentist" },
    { say: "我{when}有个面试。", ask: ["我的面试是哪天？", "面试定在什么时候？"], topic: "interview" },
    { say: "我表姐{when}结婚。", ask: ["表姐的婚礼是哪天？"], topic: "wedding" },
    { say: "车子{when}要去做保养。", ask: ["车什么时候保养？", "我哪天把车送去4S店？"], topic: "car-service" },
    { say: "孩子学校{when}开家长会。", ask: ["家长会是哪天？"], topic: "school-meeting" },
    { say: "我{when}飞回老家看爸妈。", ask: ["我哪天回老家？", "我什么时候回去看父母？"], topic: "flight" },
  ],
  whens: [
    { text: "明天", rule: { kind: "days", n: 1 } },
    { text: "后天", rule: { kind: "days", n: 2 } },
    { text: "大后天", rule: { kind: "days", n: 3 } },
    { text: "下周五", rule: { kind: "weekday-next-week", weekday: 5 } },
    { text: "下周三", rule: { kind: "weekday-next-week", weekday: 3 } },
    { text: "两周后", rule: { kind: "days", n: 14 } },
    { text: "20号", rule: { kind: "day-of-month", day: 20 } },
    { text: "月底", rule: { kind: "end-of-month" }, tolerance: 2 },
    { text: "下个月3号", rule: { kind: "next-month-day", day: 3 } },
  ],
  prefs: [
    { say: "我不吃香菜，一点都受不了。", ask: ["我吃饭有什么忌口？", "点菜时要避开什么？"], topic: "cilantro" },
    { say: "坐飞机我喜欢靠过道的座位。", ask: ["帮我订机票选什么位置？"], topic: "seat" },
    { say: "我喝咖啡不加糖不加奶。", ask: ["我的咖啡怎么喝？"], topic: "coffee" },
    { say: "比起电子书我更喜欢纸质书。", ask: ["送我Kindle合适吗？", "我看书喜欢什么形式？"], topic: "books" },
    { say: "我特别喜欢川菜，越辣越好。", ask: ["我爱吃哪个菜系？", "我能吃辣吗？"], topic: "spicy" },
    { say: "周末我最喜欢去公园露营。", ask: ["我休息日喜欢做什么？"], topic: "weekend" },
    { say: "我不喜欢打电话，有事发微信就行。", ask: ["怎么联系我比较好？"], topic: "contact" },
    { say: "一年里我最喜欢秋天。", ask: ["我最喜欢哪个季节？"], topic: "season" },
    { say: "恐怖片我不看，我爱看纪录片。", ask: ["给我推荐电影要注意什么？"], topic: "films" },
  ],
  singles: [
    { say: "我生日是三月十二号。", ask: ["我哪天过生日？"], topic: "birthday" },
    { say: "我对花生过敏。", ask: ["我有什么过敏的东西吗？", "有什么食物我不能碰？"], topic: "allergy" },
    { say: "我开的是一辆白色的比亚迪。", ask: ["我的车是什么牌子？", "我开什么车？"], topic: "car" },
    { say: "我在学日语，准备明年考N2。", ask: ["我在学哪门外语？"], topic: "language" },
    { say: "我会弹古筝，学了十年。", ask: ["我会什么乐器？"], topic: "instrument" },
    { say: "我是O型血。", ask: ["我的血型是什么？"], topic: "blood" },
    { say: "我大学在武汉大学读的新闻。", ask: ["我大学学的什么专业？"], topic: "study" },
    { say: "我老家在湖南衡阳。", ask: ["我是哪里人？", "我的家乡在哪？"], topic: "hometown" },
    { say: "我有两个孩子，一儿一女。", ask: ["我有几个小孩？"], topic: "kids" },
    { say: "我在备考CPA。", ask: ["我在准备什么考试？"], topic: "exam" },
    { say: "我是湖人队的球迷。", ask: ["我支持哪支篮球队？"], topic: "team" },
    { say: "我每周四晚上去社区当志愿者。", ask: ["我周四晚上一般在忙什么？"], topic: "volunteer" },
  ],
  abstain: [
    { ask: "我的猫叫什么名字？", topic: "pet" },
    { ask: "我是什么血型？", topic: "blood" },
    { ask: "我会弹什么乐器？", topic: "instrument" },
    { ask: "我大学在哪读的？", topic: "study" },
    { ask: "我开什么牌子的车？", topic: "car" },
    { ask: "我对什么过敏？", topic: "allergy" },
    { ask: "我对象叫什么？", topic: "partner" },
    { ask: "我喜欢哪个球队？", topic: "team" },
    { ask: "我在学什么语言？", topic: "language" },
    { ask: "我生日是哪天？", topic: "birthday" },
    { ask: "我有几个孩子？", topic: "kids" },
    { ask: "我最喜欢哪家餐厅？", topic: "restaurant" },
    { ask: "我在哪家健身房锻炼？", topic: "gym" },
    { ask: "我穿多大码的鞋？", topic: "shoes" },
    { ask: "我上次旅游去了哪里？", topic: "holiday" },
    { ask: "我的护照什么时候到期？", topic: "passport" },
    { ask: "我舅舅是做什么的？", topic: "rel:uncle" },
    { ask: "我奶奶叫什么名字？", topic: "rel:grandmother" },
  ],
  replies: [
    "好的，记住了。",
    "明白。",
    "听起来变化挺大的！",
    "恭喜！",
    "了解～",
    "好的，我记下了。",
    "哈哈，挺好的。",
    "收到。",
  ],
  openers: ["在吗？", "早呀，跟你说几件事。", "又来啦，最近发生了挺多事。", "嗨，有空聊两句吗？"],
  greetings: ["在的，你说。", "好呀，说吧。", "来啦，最近怎么样？", "当然，我听着呢。"],
};
