/**
 * @module mcp/tool-definition
 * The shape of one tool in the registry: zod input and output schemas (the single source of truth
 * for both transports), annotations, and a handler returning structured content plus text.
 * `defineTool` checks a tool's handler against its own schemas, then erases them for the registry's
 * list: the erased `run` reads its arguments through the tool's input schema (mcp/registrar.ts says why).
 */
import type { z } from "zod";
import type { ToolAnnotations } from "./registrar";
import type { ToolContext } from "./tool-context";

export type { ToolAnnotations } from "./registrar";

export interface ToolOutput<O> {
  structured: O;
  text: string;
}

/** One tool as written: its handler typed by its own schemas. */
export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /**
   * Listed only to credentials that act as one person (user keys, OAuth grants): a tool whose input
   * is fixed by an outside contract (ChatGPT's search and fetch) has no user_id for an app key to name.
   */
  personOnly?: boolean;
  run(ctx: ToolContext, args: z.output<I>): Promise<ToolOutput<z.output<O>>>;
}

/** One tool as the registry holds it (every tool in one list, whatever its schemas). */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  personOnly: boolean;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolOutput<Record<string, unknown>>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>): ToolDefinition {
  const { name, title, description, input, output, annotations } = spec;
  return {
    name,
    title,
    description,
    input,
    output,
    annotations,
    personOnly: spec.personOnly ?? false,
    run: (ctx, args) => spec.run(ctx, input.parse(args)),
  };
}

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
