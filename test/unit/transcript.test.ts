import { describe, expect, it } from "vitest";
import { MemoryError } from "../../src/memory/errors";
import { assignMessageRoles, normaliseRole, OTHER_ROLE, parseTranscript } from "../../src/memory/write/transcript";

const roles = (text: string, names = {}) => parseTranscript(text, names).map((m) => m.role);

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof MemoryError) return `${err.code}:${err.message}`;
    throw err;
  }
  return undefined;
}

describe("speakers of a transcript", () => {
  it("known assistant names are the assistant; the one other speaker is the user", () => {
    for (const name of ["ChatGPT", "Claude", "AI", "Bot", "Gemini", "Copilot", "豆包"]) {
      const text = `Sam: I just moved to Lisbon.\n${name}: Noted! I'll remember that.`;
      expect(roles(text)).toEqual(["user", "assistant"]);
    }
  });

  it("an unknown speaker beside User: is another party, never the user", () => {
    expect(roles("User: I like tea.\nNova: I love coffee.\nAssistant: ok")).toEqual(["user", OTHER_ROLE, "assistant"]);
  });

  it("user_name and assistant_name pick the sides of a chat between two names", () => {
    const text = "Caroline: I went to a support group.\nMelanie: Wow!\nCaroline: It was powerful.";
    expect(roles(text, { userName: "caroline" })).toEqual(["user", OTHER_ROLE, "user"]);
    expect(roles(text, { assistantName: "Melanie" })).toEqual(["user", "assistant", "user"]);
    expect(roles("小林：我去了绿禾公园。\n阿星：真好！", { userName: "小林" })).toEqual(["user", OTHER_ROLE]);
  });

  it("asks for user_name when it cannot tell, and names a user_name that no line carries", () => {
    expect(fieldOf(() => parseTranscript("Caroline: hi\nMelanie: hey"))).toMatch(
      /^invalid_input:.*user_name.*Caroline, Melanie/,
    );
    expect(fieldOf(() => parseTranscript("User: hi\nAssistant: hey", { userName: "Bob" }))).toMatch(
      /^invalid_input:.*user_name.*Bob/,
    );
  });

  it("lower-case words, times and links are not speaker labels", () => {
    const text = "User: note: buy milk\nmeeting: at 10:30, see https://example.com\nAssistant: ok";
    expect(parseTranscript(text)).toEqual([
      { role: "user", content: "note: buy milk\nmeeting: at 10:30, see https://example.com" },
      { role: "assistant", content: "ok" },
    ]);
  });

  it("messages given with names as roles follow the same rules", () => {
    const messages = [
      { role: "Caroline", content: "I adopted a cat." },
      { role: "Melanie", content: "Congrats!" },
    ];
    expect(assignMessageRoles(messages, { userName: "Caroline" }).map((m) => m.role)).toEqual(["user", OTHER_ROLE]);
    expect(normaliseRole("ChatGPT")).toBe("assistant");
  });
});
