import { describe, expect, it } from "vitest";
import { factEventTime } from "../../src/memory/write/fact-time";
import { splitChineseClauses, splitCompound, withDroppedI } from "../../src/providers/rules/clause-split";
import { extractFactsByRules } from "../../src/providers/rules/extract-facts";
import { withoutAddressedClauses } from "../../src/providers/rules/statement-parts";

const user = (content: string) => ({ role: "user", content });
const assistant = (content: string) => ({ role: "assistant", content });
const contents = (...said: string[]) => extractFactsByRules(said.map(user)).map((f) => f.content);

describe("extraction: a ChatGPT-style conversation, fact by fact", () => {
  const conversation = [
    user("Hi! Big news — I'm moving to Lisbon next month for a new job."),
    assistant("Congratulations! I love Lisbon. How can I help?"),
    user("Thanks! Any vegan places near Alfama? I'm vegan btw."),
    assistant("Sure, there are a few. I'm a big fan of Ao 26."),
    user("Oh, and I don't speak Portuguese yet. I want to take classes."),
    assistant("A good idea."),
    user("My sister lives in Porto. She loves ceramics."),
    assistant("Porto is lovely."),
    user("I'm also learning the piano."),
    assistant("Nice! How long have you been playing?"),
    user("I'm a complete beginner. I'd prefer a real teacher to an app."),
    assistant("A teacher helps."),
    user("My daughter's birthday is next month."),
    assistant("Any plans?"),
    user("I don't drink coffee anymore, switched to matcha."),
    assistant("Got it!"),
  ];

  it("keeps every stated fact, filler stripped, subject kept, nothing of the assistant's", () => {
    expect(extractFactsByRules(conversation).map((f) => [f.turn, f.category, f.content])).toEqual([
      [0, "plan", "I'm moving to Lisbon next month for a new job."],
      [2, "personal", "I'm vegan"],
      [4, "personal", "I don't speak Portuguese yet."],
      [4, "plan", "I want to take classes."],
      [6, "personal", "My sister lives in Porto."],
      [6, "personal", "My sister loves ceramics."],
      [8, "personal", "I'm also learning the piano."],
      [10, "personal", "I'm a complete beginner at piano."],
      [10, "preference", "I'd prefer a real teacher to an app."],
      [12, "personal", "My daughter's birthday is next month."],
      [14, "constraint", "I don't drink coffee anymore"],
      // A habit switched is a lasting fact, which a later conflict check compares.
      [14, "personal", "I switched to matcha."],
    ]);
  });

  it("dates the plan and the birthday from the conversation's date", () => {
    expect(factEventTime("I'm moving to Lisbon next month for a new job.", "2027-03-14T09:00:00Z")).toBe("2027-04-01");
    expect(factEventTime("My daughter's birthday is next month.", "2027-03-14T09:00:00Z")).toBe("2027-04-01");
  });
});

describe("extraction: compound sentences become atomic facts", () => {
  it("cuts an English sentence where a clause of the speaker's own begins", () => {
    expect(splitCompound("I live in Lisbon and teach yoga on weekends.")).toEqual([
      "I live in Lisbon",
      "I teach yoga on weekends.",
    ]);
    expect(splitCompound("I used to live in Lisbon, but now I live in Porto.")).toEqual([
      "I used to live in Lisbon",
      "now I live in Porto.",
    ]);
    expect(withDroppedI("Switched to matcha last week.")).toBe("I switched to matcha last week.");
  });

  it("leaves a sentence whole where no clause of the speaker's begins", () => {
    expect(splitCompound("I feel great, like I can do anything.")).toEqual(["I feel great, like I can do anything."]);
    expect(splitCompound("I love tea and coffee.")).toEqual(["I love tea and coffee."]);
    expect(splitCompound("My sister and I went to Porto, then we took the train.")).toEqual([
      "My sister and I went to Porto, then we took the train.",
    ]);
  });

  it("splits a Chinese sentence into the speaker's clauses and keeps the rest together", () => {
    expect(splitChineseClauses("我不吃辣，也不吃香菜。")).toEqual(["我不吃辣", "我也不吃香菜"]);
    expect(splitChineseClauses("我喜欢深蓝色，不喜欢黑色。")).toEqual(["我喜欢深蓝色", "我不喜欢黑色"]);
    expect(splitChineseClauses("不过我不再喝奶茶了，太甜。")).toEqual(["不过我不再喝奶茶了，太甜。"]);
    // Someone else's subject is not carried on: whose wish it is stays as said.
    expect(splitChineseClauses("她不知道我在学，想给她一个惊喜。")).toEqual(["她不知道我在学，想给她一个惊喜。"]);
    expect(splitChineseClauses("我爸爸前年去世了，所以这次更想陪陪她。")).toEqual([
      "我爸爸前年去世了，所以这次更想陪陪她。",
    ]);
  });
});

describe("extraction: who and what a fact is about", () => {
  it("names the person a sentence-initial pronoun stands for", () => {
    expect(contents("My sister lives in Porto.", "She loves ceramics.")).toEqual([
      "My sister lives in Porto.",
      "My sister loves ceramics.",
    ]);
    expect(contents("我男朋友叫阿杰，他很会做菜。")).toEqual(["我男朋友叫阿杰", "阿杰很会做菜"]);
    expect(contents("上周三我和老同学小周吃了火锅，他刚从美国回来。")).toEqual([
      "上周三我和老同学小周吃了火锅",
      "小周刚从美国回来",
    ]);
  });

  it("leaves a pronoun alone when nobody it could stand for was named", () => {
    expect(contents("I love hiking.", "She is amazing at chess.")).toEqual(["I love hiking."]);
  });

  it("gives a word that needs it the subject being learnt", () => {
    expect(contents("我想学做饭，但我是个完全的新手。")).toEqual(["我想学做饭", "我是个完全的做饭新手"]);
    expect(contents("我在学钢琴。", "另外我想考级，你觉得什么时候合适？")).toEqual(["我在学钢琴。", "我想考钢琴级"]);
    expect(contents("我在学钢琴。", "每天大概练半小时。")).toEqual(["我在学钢琴。", "我每天大概练钢琴半小时。"]);
    expect(contents("I'm learning Portuguese.", "I'm a total beginner.")).toEqual([
      "I'm learning Portuguese.",
      "I'm a total beginner at Portuguese.",
    ]);
  });

  it("keeps what a Chinese sentence says of the speaker beside words to the assistant", () => {
    expect(withoutAddressedClauses("我听你的建议，开始每天早睡了。")).toBe("开始每天早睡了。");
    expect(withoutAddressedClauses("你好")).toBeNull();
    expect(contents("我听你的建议，开始每天早睡了。")).toEqual(["我开始每天早睡了。"]);
    expect(contents("帮我记一下，我的车牌是沪A12345。")).toEqual(["我的车牌是沪A12345。"]);
    expect(contents("谢谢，我周末再看看。")).toEqual([]);
  });

  it("reads a closing 呢 as a statement's particle unless the sentence asks", () => {
    expect(contents("我也养了一只猫呢。", "我在准备考公务员呢。")).toEqual([
      "我也养了一只猫呢。",
      "我在准备考公务员呢。",
    ]);
    expect(contents("那我该怎么办呢。", "你呢？", "我也是呢")).toEqual([]);
  });

  it("files what happened at a past time as an event, and a reply as nothing", () => {
    expect(
      extractFactsByRules([user("上个月我去了一趟云南。"), user("我平时不怎么运动。")]).map((f) => f.category),
    ).toEqual(["event", "personal"]);
    expect(contents("好的，我会注意的。", "嗯，我知道了。")).toEqual([]);
  });

  it("files a plan with its time and a Chinese trip ahead as plans", () => {
    expect(extractFactsByRules([user("我下周五要去北京出差，你能帮我订酒店吗？")]).map((f) => f.category)).toEqual([
      "plan",
    ]);
  });
});
