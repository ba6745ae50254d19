import { describe, expect, it } from "vitest";
import { splitChineseClauses } from "../../src/providers/rules/clause-split";
import { extractFactsByRules } from "../../src/providers/rules/extract-facts";
import { isChineseStatement, withoutFiller, withoutRequestClauses } from "../../src/providers/rules/statement-parts";

const user = (content: string) => ({ role: "user", content });
const assistant = (content: string) => ({ role: "assistant", content });
const contents = (...messages: { role: string; content: string }[]) =>
  extractFactsByRules(messages).map((f) => f.content);

describe("Chinese extraction: who a fact is about", () => {
  it("names a cousin, a supervisor and a girlfriend taken along, where the user says 她 or 他", () => {
    expect(contents(user("我表妹下周六结婚。"), assistant("恭喜！"), user("她比我小三岁。"))).toEqual([
      "我表妹下周六结婚。",
      "我表妹比我小三岁。",
    ]);
    expect(contents(user("我导师姓王，他希望我读博。"))).toEqual(["我导师姓王", "我导师希望我读博"]);
    expect(contents(user("下个月想带女朋友去日本玩。"), assistant("好啊。"), user("她特别喜欢动漫。"))).toEqual([
      "我下个月想带女朋友去日本玩。",
      "我女朋友特别喜欢动漫。",
    ]);
  });

  it("names a pet by the name the user gave it, after a time word too, and never puts 我 before it", () => {
    expect(
      contents(user("我家有一只橘猫叫土豆，今年四岁。"), assistant("好可爱。"), user("最近它老是吐，去看了兽医。")),
    ).toEqual(["我家有一只橘猫叫土豆，今年四岁。", "最近土豆老是吐，去看了兽医。"]);
    // 它 is never a person: a sister spoken of before stays out of it.
    expect(contents(user("我姐姐在成都。"), assistant("好的。"), user("最近它老是吐。"))).not.toContain(
      "最近我姐姐老是吐。",
    );
  });

  it("carries 她 over the user's last two messages, not further", () => {
    const said = [
      user("下个月想带女朋友去日本玩一周。"),
      assistant("不错！"),
      user("我们都不会日语。"),
      assistant("没关系。"),
      user("她晕车很厉害。"),
    ];
    expect(contents(...said)).toContain("我女朋友晕车很厉害。");
    const later = [...said.slice(0, 4), user("我买了机票。"), assistant("好的。"), user("她晕车很厉害。")];
    expect(contents(...later)).toContain("她晕车很厉害。");
  });
});

describe("Chinese extraction: statements whose subject is left out", () => {
  it("keeps a plan said with a relative day and a verb done for a length of time, with 我", () => {
    expect(contents(user("后天下午有一个字节的面试，能帮我模拟一下吗？"))).toEqual(["我后天下午有一个字节的面试"]);
    expect(contents(user("干了六年柜员，太累了。"))).toEqual(["我干了六年柜员，太累了。"]);
  });

  it("keeps what the speaker spends, not the weather of the day", () => {
    expect(isChineseStatement("猫粮一个月大概花三百块")).toBe(true);
    expect(isChineseStatement("今天天气不错呢。")).toBe(false);
    expect(contents(user("猫粮一个月大概花三百块，有没有便宜点的牌子推荐？"))).toEqual(["猫粮一个月大概花三百块"]);
  });

  it("keeps no opinion or reply: not a sentence, not a clause beside a fact", () => {
    expect(contents(user("好的我去看看。"), user("我再想想。"))).toEqual([]);
    expect(contents(user("我老公想让她学游泳，我觉得也行。"))).toEqual(["我老公想让她学游泳"]);
  });
});

describe("Chinese extraction: one fact per clause", () => {
  it("cuts at a change, a time ahead and what someone said of the speaker", () => {
    expect(splitChineseClauses("我不喝咖啡了，改喝抹茶，医生说我胃不好。")).toEqual([
      "我不喝咖啡了",
      "我改喝抹茶",
      "医生说我胃不好",
    ]);
    expect(splitChineseClauses("我在读研二，明年六月毕业。")).toEqual(["我在读研二", "我明年六月毕业"]);
  });

  it("keeps a clause with the one naming someone, whose it is", () => {
    expect(splitChineseClauses("我家有一只橘猫叫土豆，今年四岁，特别能吃。")).toEqual([
      "我家有一只橘猫叫土豆，今年四岁，特别能吃。",
    ]);
    expect(splitChineseClauses("我叫林晓，今年二十八岁。")).toEqual(["我叫林晓", "我今年二十八岁"]);
  });

  it("cuts before a clause whose subject follows a time", () => {
    expect(splitChineseClauses("我们打算下下周末去看房，大后天我要加班，没空。")).toEqual([
      "我们打算下下周末去看房",
      "大后天我要加班，没空",
    ]);
  });
});

describe("Chinese extraction: what is not the statement", () => {
  it("strips 说实话 before it and laughter after it, with its comma", () => {
    expect(withoutFiller("说实话我俩都是夜猫子。")).toBe("我俩都是夜猫子。");
    expect(withoutFiller("我不抽烟了，戒了快半年了，哈哈。")).toBe("我不抽烟了，戒了快半年了");
    expect(withoutFiller("我不抽烟了。")).toBe("我不抽烟了。");
  });

  it("drops what the user asks the assistant to do after the fact", () => {
    expect(withoutRequestClauses("我老公对海鲜过敏，记得避开。")).toBe("我老公对海鲜过敏");
    expect(withoutRequestClauses("记得我对海鲜过敏。")).toBe("记得我对海鲜过敏。");
    expect(contents(user("好的，我老公对海鲜过敏，记得避开。"))).toEqual(["我老公对海鲜过敏"]);
  });
});
