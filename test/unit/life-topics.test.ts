/**
 * The areas of a life a question asks about and a statement speaks of, in English and Chinese, in
 * words the benchmark never uses (bench/person holds others): a question finds its area, a statement
 * its own, and questions about something else (where one was born, a business partner, an allergy)
 * find none.
 */
import { describe, expect, it } from "vitest";
import { firstPerson, statesTopic, topicSearchText, topicsAsked } from "../../src/memory/text/life-topics";

describe("topicsAsked", () => {
  it.each([
    ["Where do I live these days?", "home"],
    ["what town am I in now", "home"],
    ["我家在哪个城市？", "home"],
    ["Who do I work for?", "work"],
    ["what's my occupation", "work"],
    ["我现在在哪个单位？", "work"],
    ["Am I married?", "partner"],
    ["who's my girlfriend", "partner"],
    ["我老婆叫什么", "partner"],
    ["When do I usually wake up?", "sleep"],
    ["我一般几点睡", "sleep"],
    ["How do I stay fit?", "exercise"],
    ["我平时做什么运动", "exercise"],
    ["How do I get to the office?", "commute"],
    ["我通勤多久", "commute"],
    ["What's my mobile?", "contact"],
    ["我的邮箱是多少", "contact"],
    ["How much is my rent?", "rent"],
    ["我的房租多少", "rent"],
    ["What's my partner's name?", "partner"],
    ["我个子有多少？", "body"],
    ["我之前的东家是哪家？", "work"],
    ["Where was I raised?", "origin"],
    ["我的家乡在哪？", "origin"],
    ["Is there anything I must not eat?", "allergy"],
    ["有什么食物我不能碰？", "allergy"],
    ["Any food I should avoid?", "allergy"],
    ["Is there anything I shouldn't eat?", "allergy"],
    ["How many children do I have?", "kids"],
    ["我有几个孩子？", "kids"],
    ["When is my birthday?", "birthday"],
    ["Which language am I studying?", "language"],
    ["What's my name?", "name"],
    ["我叫什么名字？", "name"],
    ["How do I like to be contacted?", "contact"],
  ])("%s → %s", (question, topic) => {
    expect(topicsAsked(question)).toContain(topic);
  });

  it.each([
    "Where was I born?",
    "Which town did I grow up in?",
    "我老家在哪",
    "Who is my business partner?",
    "What am I allergic to?",
    "What's my favourite restaurant?",
    "我会弹什么乐器？",
    "How do I get to work?",
  ])("%s asks about no area of the one it seems to (or none)", (question) => {
    const asked = topicsAsked(question);
    expect(asked).not.toContain("home");
    expect(asked).not.toContain("partner");
    expect(asked).not.toContain("diet");
    expect(asked).not.toContain("work");
  });
});

describe("statesTopic", () => {
  it.each([
    ["We finally relocated to Porto", "home"],
    ["I've settled in Munich now", "home"],
    ["我搬到杭州了", "home"],
    ["终于在成都安顿下来了", "home"],
    ["Started at Zalando on Monday as a product designer", "work"],
    ["I'm a nurse at St Mary's", "work"],
    ["我跳槽去了腾讯", "work"],
    ["我是美团的产品经理", "work"],
    ["I'm seeing someone new, her name is Ana", "partner"],
    ["我和男朋友分手了", "partner"],
    ["I went vegan in March", "diet"],
    ["我现在吃素", "diet"],
    ["I take the tram to the office", "commute"],
    ["我改骑电动车了", "commute"],
    ["I swim three times a week", "exercise"],
    ["我每天晨跑五公里", "exercise"],
    ["My email is ana@example.org", "contact"],
  ])("%s speaks of %s", (statement, topic) => {
    expect(statesTopic(statement, topic as Parameters<typeof statesTopic>[1])).toBe(true);
  });

  it("a statement of another area, or about where one was born, is not about home", () => {
    expect(statesTopic("I was born in a house by the sea", "home")).toBe(false);
    expect(statesTopic("我老家在湖南", "home")).toBe(false);
    expect(statesTopic("I love sushi", "home")).toBe(false);
    expect(statesTopic("Tom is my business partner", "partner")).toBe(false);
    expect(statesTopic("I'm allergic to peanuts, I can't eat them", "diet")).toBe(false);
    // The rent is the rent area's, renting a home is home's.
    expect(statesTopic("我每个月房租四千五。", "home")).toBe(false);
    expect(statesTopic("My rent is 1200 euros a month", "home")).toBe(false);
    expect(statesTopic("I rent a place in Lisbon", "home")).toBe(true);
    expect(statesTopic("我在杭州租了个房子", "home")).toBe(true);
    // A job title as a modifier and the way to work are not statements of work.
    expect(statesTopic("I have a dentist appointment the day after tomorrow", "work")).toBe(false);
    expect(statesTopic("These days I cycle to work", "work")).toBe(false);
    expect(statesTopic("These days I cycle to work", "commute")).toBe(true);
    expect(statesTopic("I'm a dentist at a clinic in Leeds", "work")).toBe(true);
  });
});

describe("firstPerson and the search words", () => {
  it("knows the asker's own statements in both languages", () => {
    expect(firstPerson("We moved to Lisbon")).toBe(true);
    expect(firstPerson("我住在北京")).toBe(true);
    expect(firstPerson("Caroline moved to Lisbon")).toBe(false);
    expect(firstPerson("Imogen lives in Milan")).toBe(false);
  });

  it("searches the statement words of each asked area and nothing else", () => {
    const text = topicSearchText(["home"]);
    expect(text).toContain("moved");
    expect(text).toContain("搬");
    expect(text).not.toContain("job");
  });
});

describe("whose area a Chinese question asks about", () => {
  it("the asker's, with 我 before 的, and not someone else's", () => {
    expect(topicsAsked("我目前的雇主是谁？")).toContain("work");
    expect(topicsAsked("我的老公叫什么")).toContain("partner");
    expect(topicsAsked("小芳的老公给我推荐了什么？")).not.toContain("partner");
    expect(topicsAsked("我租房一个月多少钱？")).toContain("rent");
  });
});
