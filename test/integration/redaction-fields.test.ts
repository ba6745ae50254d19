/**
 * Issue 11, finding 6: tags, source and category are screened like content, and update_memory does
 * not keep unredacted pre-edit text in history.
 */
import { describe, expect, it } from "vitest";
import { uniqueUser } from "../helpers/api-keys";
import { eventsOf, insertMemories, ok, ownerOf, rowOf, stubOf } from "../helpers/lifecycle";

const KEY = "hc_0123456789abcdef0123456789abcdef01234567";

describe("screening every free-text field", () => {
  it("redacts secrets in tags, source and category", async () => {
    const owner = ownerOf(uniqueUser());
    const saved = await ok(
      stubOf(owner).save(owner, {
        content: "Deploys the staging bot on Mondays",
        tags: ["ops", `key ${KEY}`],
        source: `chat with token ${KEY}`,
        category: `creds ${KEY}`,
      }),
    );
    const row = await rowOf(saved.id!);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(KEY);
    expect(String(row?.tags)).toContain("[REDACTED:hippocampus-key]");
  });

  it("update_memory keeps no unredacted pre-edit text in history", async () => {
    const owner = ownerOf(uniqueUser());
    // A row stored before this rule existed still holds the raw key.
    const [m] = await insertMemories(owner, [{ content: `The deploy key is ${KEY} for now` }]);
    await ok(stubOf(owner).update(owner, { id: m.id, content: "The deploy key was rotated" }));
    const events = await eventsOf(m.id);
    const update = events.find((e) => e.op === "update");
    expect(update?.before).toContain("[REDACTED:hippocampus-key]");
    expect(JSON.stringify(events.filter((e) => e.op === "update"))).not.toContain(KEY);
  });
});
