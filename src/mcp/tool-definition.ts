/**
 * @module mcp/tool-definition
 * The shape of one tool in the registry: zod input and output schemas (the single source of truth
 * for both transports), annotations, and a handler returning structured content plus text.
 */
import type { z } from "zod";
import type { ToolContext } from "./tool-context";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

export interface ToolOutput<O> {
  structured: O;
  text: string;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(ctx: ToolContext, args: z.infer<I>): Promise<ToolOutput<z.infer<O>>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(def: ToolDefinition<I, O>): ToolDefinition {
  return def as unknown as ToolDefinition;
}

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
