/**
 * The listed JSON Schemas are converted once per isolate (mcp/listed-schema.ts): every later call
 * must hand out the same schema as a fresh conversion would, per target and per caller variant, and
 * as a copy the caller may change without reaching the next caller.
 */
import { describe, expect, it } from "vitest";
import { toJSONSchema, z } from "zod";
import { listedSchema } from "../../src/mcp/listed-schema";
import { TOOLS } from "../../src/mcp/tool-list";

const TARGETS = ["draft-2020-12", "draft-07"] as const;

describe("listed schemas are converted once and copied out", () => {
  it("gives every tool's input and output schema unchanged on repeated calls, per target and variant", () => {
    for (const tool of TOOLS) {
      for (const hidden of [[], ["user_id"]]) {
        const input = listedSchema(tool.input, "input", hidden)["~standard"].jsonSchema;
        const output = listedSchema(tool.output, "output")["~standard"].jsonSchema;
        for (const target of TARGETS) {
          const first = input.input({ target });
          expect(input.input({ target })).toEqual(first);
          expect(output.output({ target })).toEqual(output.output({ target }));
        }
      }
    }
  });

  it("keeps the caller variants apart: user_id hidden only where asked", () => {
    const recall = TOOLS.find((t) => t.name === "recall_memory");
    if (!recall) throw new Error("recall_memory is not in the tool list");
    const app = listedSchema(recall.input, "input", [])["~standard"].jsonSchema.input({ target: "draft-2020-12" });
    const user = listedSchema(recall.input, "input", ["user_id"])["~standard"].jsonSchema.input({
      target: "draft-2020-12",
    });
    expect(Object.keys(app.properties as object)).toContain("user_id");
    expect(Object.keys(user.properties as object)).not.toContain("user_id");
    // Asked again after the other variant: still its own answer.
    const again = listedSchema(recall.input, "input", [])["~standard"].jsonSchema.input({ target: "draft-2020-12" });
    expect(again).toEqual(app);
  });

  it("keeps the conversion targets apart", () => {
    const schema = z.object({ when: z.string().describe("a time"), tags: z.array(z.string()).optional() });
    const listed = listedSchema(schema, "input")["~standard"].jsonSchema;
    const d07 = listed.input({ target: "draft-07" });
    const d2020 = listed.input({ target: "draft-2020-12" });
    // Each equals a fresh conversion of its own target (less the $schema line the listing drops).
    const fresh = (target: (typeof TARGETS)[number]) => {
      const { $schema: _, ...rest } = schema["~standard"].jsonSchema.input({ target });
      return rest;
    };
    expect(d07).toEqual(fresh("draft-07"));
    expect(d2020).toEqual(fresh("draft-2020-12"));
    expect(listed.input({ target: "draft-07" })).toEqual(d07);
  });

  it("converts once per target, however often the SDK asks", () => {
    const schema = z.object({ query: z.string().describe("what to find") });
    const standard = schema["~standard"];
    let conversions = 0;
    schema["~standard"] = {
      ...standard,
      jsonSchema: {
        input: (options) => {
          conversions++;
          return standard.jsonSchema.input(options);
        },
        output: (options) => {
          conversions++;
          return standard.jsonSchema.output(options);
        },
      },
    };
    const listed = listedSchema(schema, "output")["~standard"].jsonSchema;
    for (let i = 0; i < 5; i++) listed.output({ target: "draft-2020-12" });
    expect(conversions).toBe(1);
    listed.output({ target: "draft-07" });
    expect(conversions).toBe(2);
  });

  it("hands out copies: changing one answer changes no later answer", () => {
    const tool = TOOLS[0];
    const json = listedSchema(tool.output, "output")["~standard"].jsonSchema;
    const first = json.output({ target: "draft-2020-12" });
    const pristine = structuredClone(first);
    first.type = "changed";
    (first.properties as Record<string, unknown>).injected = { type: "string" };
    const second = json.output({ target: "draft-2020-12" });
    expect(second).not.toBe(first);
    expect(second).toEqual(pristine);
  });

  it("gives the v1 SDK's zod conversion the same schema as /mcp lists, on every call", () => {
    for (const tool of TOOLS) {
      const copy = listedSchema(tool.input, "input", ["user_id"]);
      const listed = copy["~standard"].jsonSchema.input({ target: "draft-2020-12" });
      const viaZod = toJSONSchema(copy, { target: "draft-2020-12" });
      expect(toJSONSchema(copy, { target: "draft-2020-12" })).toEqual(viaZod);
      const { $schema: _, ...rest } = viaZod as Record<string, unknown>;
      expect(rest).toEqual(listed);
    }
  });
});
