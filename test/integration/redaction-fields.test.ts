/**
 * Tags, source and category are screened like content, and update_memory does
 * not keep unredacted pre-edit text in history; an import's external ids are screened before they are
 * looked up, stored or answered.
 */
import { describe, expect, it } from "vitest";
import { parseImportLines } from "../../src/memory/import/parse-import-lines";
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

  it("screens an import's external_id before the lookup: a re-import skips it and no answer shows the key", async () => {
    const owner = ownerOf(uniqueUser());
    const body = [
      JSON.stringify({ content: "Ticket about the deploy bot", external_id: `ticket ${KEY}` }),
      JSON.stringify({
        content: "Follow-up on the deploy bot",
        external_id: "ticket-2",
        derived_from: [`ticket ${KEY}`],
      }),
    ].join("\n");
    const parsed = parseImportLines(body);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const first = await ok(stubOf(owner).import(owner, parsed.lines));
    expect(first.imported).toBe(2);
    expect(JSON.stringify(first)).not.toContain(KEY);
    expect(first.items[0].external_id).toBe("ticket [REDACTED:hippocampus-key]");
    // The stored id is the screened one, so the lookup must use it too: re-sending the file skips both lines.
    const again = await ok(stubOf(owner).import(owner, parsed.lines));
    expect(again.imported).toBe(0);
    expect(again.items.map((i) => i.status)).toEqual(["skipped", "skipped"]);
    expect(JSON.stringify(again)).not.toContain(KEY);
    const rows = await Promise.all(first.items.map((i) => rowOf(i.id)));
    expect(JSON.stringify(rows)).not.toContain(KEY);
  });
});
