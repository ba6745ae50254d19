import { describe, expect, it } from "vitest";
import { CHAT_TALK, chatTalk } from "../../src/providers/rules/chat-talk";
import { extractFactsByRules } from "../../src/providers/rules/extract-facts";
import { normalise } from "../../src/providers/rules/text";

const contents = (content: string) => extractFactsByRules([{ role: "user", content }]).map((f) => f.content);

/**
 * Each rule: what it drops (chat that states nothing about the speaker's life) beside a sentence in
 * similar words that states a fact and must still be kept.
 */
describe("English chat that is not a fact is not kept; a fact in similar words is", () => {
  it.each([
    ["exhortation", "Let's keep supporting each other on our journey.", "Let's meet up, I moved to Porto last month."],
    [
      "verdict on life",
      "It's amazing how nature can make us feel so small.",
      "It's so fulfilling to use my skills at the animal shelter every Saturday.",
    ],
    ["maxim", "Taking care of ourselves is so important.", "My health is important to me."],
    [
      "what things do for us",
      "Books can really inspire us and help us grow.",
      "We love our dogs, they give us fresh air every morning.",
    ],
    ["bare reply", "We got this!", "I did a half marathon last week!"],
    ["bare reply", "I did!", "I did my first open-water swim yesterday."],
    ["bare agreement", "I 100% agree, Mel.", "I love hiking."],
    ["bare agreement", "I hope so!", "I hope to move to Lisbon next year."],
    ["wish", "I hope you find the perfect spot soon.", "I hope it doesn't rain at my wedding next week."],
    ["reply promise", "I'll reach out if I need anything.", "I'll reach out to my landlord about the lease tomorrow."],
    ["reply promise", "I'll definitely take a look at it.", "I'll definitely take a trip to Kyoto in April."],
    ["goodbye", "I have to go, bye!", "I have to go to the dentist tomorrow."],
    ["verdict ahead", "Gonna be awesome!", "Gonna be in Paris next week for work."],
    ["empty catch-up", "Been a while since we chatted.", "Since we last spoke, I took my kids to a park yesterday."],
    ["empty catch-up", "James, a lot's happened since we last talked!", "I've been keeping busy since we last talked!"],
  ])("%s: drops %j, keeps %j", (rule, chat, fact) => {
    expect(chatTalk(normalise(chat))).toBe(rule);
    expect(contents(chat)).toEqual([]);
    expect(chatTalk(normalise(fact))).toBeNull();
    expect(contents(fact)).toEqual([fact]);
  });

  it("names every rule it has, and each is tested above", () => {
    expect(CHAT_TALK.map((r) => r.name)).toEqual([
      "exhortation",
      "verdict on life",
      "maxim",
      "what things do for us",
      "bare reply",
      "bare agreement",
      "wish",
      "reply promise",
      "goodbye",
      "empty catch-up",
      "verdict ahead",
    ]);
  });
});

describe("resolve and pep talk are not plans; a habit or plan in similar words is kept", () => {
  it.each([
    ["I'm gonna keep chasing after those dreams.", "I'm gonna chase the sunrise from Pico do Arieiro next week."],
    ["I'm not giving up on my dreams.", "I'm giving up coffee for Lent."],
    ["I'm staying positive and pushing forward.", "I'm staying at my sister's place in Porto this week."],
    ["I'm definitely going to keep pushing!", "I'm definitely going to keep up with my German lessons."],
    ["Stay strong and stay positive!", "I stay motivated by reminding myself of my progress."],
    ["I'll keep going and keep it up!", "I also watch tutorials and keep up with developer forums."],
    ["Thanks, I will!", "I will always love reading."],
    // Resolve after a clause of its own does not weigh that clause down.
    ["I'm staying positive.", "Injury's been rough, but I'm staying positive."],
    ["I'll think about it.", "I'll think about it and maybe get a cat if I find one I'm not allergic to."],
  ])("drops %j, keeps %j", (chat, fact) => {
    expect(contents(chat)).toEqual([]);
    expect(contents(fact)).toEqual([fact]);
  });
});

describe("facts the rules used to drop", () => {
  it.each([
    // What the speaker holds dear; praise of the other speaker in the same words is not kept.
    ["Drawing flowers is one of my faves.", "You're one of my favorites!", "preference"],
    ["Family time matters to me.", "Your support means a lot to me.", "preference"],
    ["Improving education is particularly interesting to me.", "That's so interesting to hear!", "preference"],
    // A regular verb in the perfect is something that happened; "I've wanted" is not.
    ["I've jammed with friends before.", "I've wanted to say that for ages.", "event"],
    // Trying something out is news; trying to feel a way is not.
    ["I'm trying out some strategy games.", "I'm trying to stay upbeat.", "event"],
  ])("keeps %j, not %j", (fact, chat, category) => {
    expect(extractFactsByRules([{ role: "user", content: fact }]).map((f) => [f.content, f.category])).toEqual([
      [fact, category],
    ]);
    expect(contents(chat)).toEqual([]);
  });

  it("keeps the statement before a question that follows a dash, and nothing of a question alone", () => {
    expect(contents("FYI, I finished another pottery project - want to see a pic?")).toEqual([
      "I finished another pottery project",
    ]);
    expect(contents("Any tips - what should I do?")).toEqual([]);
  });
});
