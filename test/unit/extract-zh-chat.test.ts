import { describe, expect, it } from "vitest";
import { splitChineseClauses } from "../../src/providers/rules/clause-split";
import { correctedAmount, extractFactsByRules, withoutMetaClauses } from "../../src/providers/rules/extract-facts";
import { isChineseStatement, withoutFiller } from "../../src/providers/rules/statement-parts";

const user = (content: string) => ({ role: "user", content });
const assistant = (content: string) => ({ role: "assistant", content });
const contents = (...messages: { role: string; content: string }[]) =>
  extractFactsByRules(messages).map((f) => f.content);
const categories = (...messages: { role: string; content: string }[]) =>
  extractFactsByRules(messages).map((f) => [f.content, f.category]);

describe("Chinese extraction: everyday words that are not what they look like", () => {
  it("reads 请假 and 请客 as the speaker's, and 请 before a verb still as a request", () => {
    expect(contents(user("我自己也不太舒服，这两天有点发烧，明天请了假。"))).toEqual([
      "我自己也不太舒服",
      "我这两天有点发烧",
      "我明天请了假",
    ]);
    expect(isChineseStatement("下周五要请客吃饭")).toBe(true);
    expect(isChineseStatement("下周五请帮我订一张票")).toBe(false);
  });

  it("keeps a loan payment as spending, the amount after a comma too", () => {
    expect(isChineseStatement("车贷，每个月两千")).toBe(true);
    expect(isChineseStatement("房贷每个月八千五")).toBe(true);
    expect(isChineseStatement("车贷的事情")).toBe(false);
  });

  it("opens a statement with the month's or year's end, and puts 我 before it", () => {
    expect(contents(user("月底要交房租。"), user("年底想换个工作。"))).toEqual([
      "我月底要交房租。",
      "我年底想换个工作。",
    ]);
  });
});

describe("Chinese extraction: a change opened by 不过 / 但是", () => {
  it("keeps the change and drops the conjunction, so the later turn can replace the earlier one", () => {
    expect(
      contents(user("我每天坐地铁上班，单程一个小时。"), assistant("好辛苦"), user("不过现在改骑电动车了，快多了。")),
    ).toEqual(["我每天坐地铁上班，单程一个小时。", "我现在改骑电动车了，快多了。"]);
    expect(contents(user("但是我不喜欢吃辣"))).toEqual(["我不喜欢吃辣"]);
  });

  it("keeps what a person they know began (「朵朵上周开始学钢琴了」), not the weather", () => {
    expect(contents(user("朵朵上周开始学钢琴了。"))).toEqual(["朵朵上周开始学钢琴了。"]);
    expect(contents(user("小芳最近在学日语。"))).toEqual(["小芳最近在学日语。"]);
    expect(contents(user("天气最近开始变冷了。"))).toEqual([]);
  });

  it("keeps a change that opens with the thing given up (「羽毛球不打了」), never dropping the correction", () => {
    expect(
      contents(user("我每周三晚上去打羽毛球。"), assistant("挺好的"), user("羽毛球不打了，最近改成每天晚上散步。")),
    ).toEqual(["我每周三晚上去打羽毛球。", "我羽毛球不打了，最近改成每天晚上散步。"]);
    expect(contents(user("咖啡不喝了，改喝茶。"))).toEqual(["我咖啡不喝了，改喝茶。"]);
  });
});

describe("Chinese extraction: a correction of an amount", () => {
  it("replaces the amount just said, in the same message or the user's message before, and stores the correction nowhere else", () => {
    expect(contents(user("还有车贷，每个月两千。哦不对，是两千五，上个月刚调过。"))).toEqual(["车贷，每个月两千五。"]);
    expect(contents(user("我房租每个月三千。"), assistant("好的。"), user("说错了，是三千五。"))).toEqual([
      "我房租每个月三千五。",
    ]);
    expect(contents(user("我住在三楼。"), user("不对，应该是五楼。"))).toEqual(["我住在五楼。"]);
  });

  it("changes nothing when the correction says more than an amount, or the fact holds none", () => {
    expect(correctedAmount("我有两个孩子。", "不对，是一个儿子一个女儿。")).toBeNull();
    expect(correctedAmount("我住在杭州。", "不对，是三千。")).toBeNull();
    expect(correctedAmount("我每个月工资一万二。", "我不对劲，是有点累。")).toBeNull();
    // Three messages back is too far: the correction is judged as a sentence of its own (and kept nowhere).
    expect(
      contents(
        user("我房租三千。"),
        assistant("好。"),
        user("我在杭州上班。"),
        assistant("好。"),
        user("不对，是四千。"),
      ),
    ).toEqual(["我房租三千。", "我在杭州上班。"]);
  });
});

describe("Chinese extraction: chat that is not a fact", () => {
  it("drops a clause of worry or meta-talk beside a fact, and the sentence that is only that", () => {
    expect(withoutMetaClauses("我妈也是糖尿病，所以我有点担心")).toBe("我妈也是糖尿病");
    expect(withoutMetaClauses("我有点担心")).toBeNull();
    expect(contents(user("我妈也是糖尿病，所以我有点担心。"), user("我有点担心。"))).toEqual(["我妈也是糖尿病"]);
    // What someone else says of the speaker is not the speaker's feeling.
    expect(contents(user("医生说我有点贫血。"))).toEqual(["医生说我有点贫血。"]);
  });

  it("keeps no reply: agreeing, not knowing yet, thinking it over, noting it down", () => {
    const replies = [
      "我也觉得。",
      "我也不知道。",
      "我还没想好。",
      "我考虑一下。",
      "我再考虑考虑。",
      "我会试试的。",
      "嗯嗯我记下了。",
    ];
    expect(contents(...replies.map(user))).toEqual([]);
  });

  it("keeps no bare feeling of the moment, but a fact said with one", () => {
    expect(contents(user("今天好累啊。"), user("我太开心了！"))).toEqual([]);
    expect(contents(user("我今天好累，加班到十点。"))).toEqual(["我今天好累，加班到十点。"]);
  });

  it("strips an answer word with its particle (「不是啦，」「好呀，」)", () => {
    expect(withoutFiller("不是啦，我已经工作了")).toBe("我已经工作了");
    expect(withoutFiller("好呀，我周六有空")).toBe("我周六有空");
  });

  it("keeps a short trait of the speaker's as what it is", () => {
    expect(categories(user("我恐高。"), user("我晕车。"), user("我属虎。"))).toEqual([
      ["我恐高。", "constraint"],
      ["我晕车。", "constraint"],
      ["我属虎。", "personal"],
    ]);
    // 怕 before someone is a worry, not a trait.
    expect(categories(user("我怕他不高兴。"))).not.toContainEqual(["我怕他不高兴。", "constraint"]);
  });
});

describe("Chinese extraction: a short clause that leans on the one before", () => {
  it("keeps 「不想再碰了」「现在不喝了」 with the clause they speak of, and cuts a clause that says more", () => {
    expect(splitChineseClauses("我不买理财产品，之前亏过一次，不想再碰了。")).toEqual([
      "我不买理财产品",
      "我之前亏过一次，不想再碰了",
    ]);
    expect(splitChineseClauses("我以前喝咖啡，现在不喝了。")).toEqual(["我以前喝咖啡，现在不喝了。"]);
    expect(splitChineseClauses("我在学日语，已经学了一年了。")).toEqual(["我在学日语", "我已经学了一年了"]);
  });
});
