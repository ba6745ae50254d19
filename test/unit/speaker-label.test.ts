/**
 * A fact from a transcript that names its user is kept as that person's turn, so a question that
 * names them finds what they said in the first person (memory/text/speaker.ts).
 */
import { describe, expect, it } from "vitest";
import { labelWithSpeaker, splitSpeaker } from "../../src/memory/text/speaker";

describe("labelWithSpeaker", () => {
  it("labels a first-person fact with a Latin name, which reads back as that speaker's turn", () => {
    const turn = labelWithSpeaker("Caroline", "I researched adoption agencies.");
    expect(turn).toBe("Caroline: I researched adoption agencies.");
    expect(splitSpeaker(turn)).toEqual({ speaker: "Caroline", body: "I researched adoption agencies." });
  });

  it("labels a Chinese fact with a Han name and the full-width colon", () => {
    expect(labelWithSpeaker("林晓", "我下个月入职")).toBe("林晓：我下个月入职");
  });

  it("leaves a fact that already names the person, or already is a turn, as it is", () => {
    expect(labelWithSpeaker("Caroline", "Caroline researched adoption agencies.")).toBe(
      "Caroline researched adoption agencies.",
    );
    expect(labelWithSpeaker("Caroline", "Melanie: I painted a lake.")).toBe("Melanie: I painted a lake.");
    expect(labelWithSpeaker("林晓", "林晓喜欢猫")).toBe("林晓喜欢猫");
  });

  it("leaves the fact unlabelled when the name is not a label the turn rule reads back", () => {
    expect(labelWithSpeaker("Dr. who?", "I like tea.")).toBe("I like tea.");
  });
});
