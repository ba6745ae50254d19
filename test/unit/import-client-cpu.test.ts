/**
 * `npm run import` against a server whose CPU time per request carries fewer lines than it sends:
 * the refusal that names cpu_ms_per_invocation halves the lines per request, nothing else does.
 */
import { describe, expect, it } from "vitest";
import { CPU_LIMIT_FIELD, fewerLinesAfter, type PostResult } from "../../scripts/lib/import-client";

const refused = (status: number, field?: string): PostResult => ({
  ok: false,
  status,
  message: "platform limit …",
  lines: [],
  ...(field ? { field } : {}),
});

describe("lines per request against a server's CPU limit", () => {
  it("halves on a 413 naming the CPU limit, down to one line", () => {
    expect(fewerLinesAfter(refused(413, CPU_LIMIT_FIELD), 1000)).toBe(500);
    expect(fewerLinesAfter(refused(413, CPU_LIMIT_FIELD), 3)).toBe(1);
    expect(fewerLinesAfter(refused(413, CPU_LIMIT_FIELD), 1)).toBeNull();
    // From 1,000 the halving reaches 31, the first size within free's 34 lines.
    let lines = 1000;
    const tried: number[] = [];
    for (let next = fewerLinesAfter(refused(413, CPU_LIMIT_FIELD), lines); next !== null && lines > 34; ) {
      lines = next;
      tried.push(lines);
      next = lines > 34 ? fewerLinesAfter(refused(413, CPU_LIMIT_FIELD), lines) : null;
    }
    expect(tried).toEqual([500, 250, 125, 62, 31]);
  });

  it("keeps the size on success and on every other refusal", () => {
    const ok: PostResult = { ok: true, body: {} as never };
    expect(fewerLinesAfter(ok, 1000)).toBeNull();
    expect(fewerLinesAfter(refused(413, "payload_bytes"), 1000)).toBeNull();
    expect(fewerLinesAfter(refused(413), 1000)).toBeNull();
    expect(fewerLinesAfter(refused(400, CPU_LIMIT_FIELD), 1000)).toBeNull();
  });
});
