/**
 * @module mcp/registrar
 * The bridge between the MCP surface (tools, resources, prompts) and the two MCP SDK generations that
 * serve it: SDK v2 on /mcp (mcp/server-factory.ts) and SDK v1 inside the legacy SSE agent
 * (mcp/legacy-sse.ts). Registration code speaks only this interface; each generation has one small
 * adapter that calls its own McpServer's typed register methods, so the compiler checks every call
 * against that SDK's real signatures (no casts: the Biome plugin .biome/mcp-no-casts.grit refuses them in src/mcp).
 *
 * Arguments reach handlers as the SDK hands them on (already validated against the schema given
 * here); each handler reads them again through its own zod schema (mcp/tool-definition.ts,
 * mcp/prompts.ts), which is what types them. The schemas carry no transforms, so the second read is
 * the identity on valid input.
 */
import type { z } from "zod";

export type ToolAnnotations = {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
};

/** Annotations as listed: a hint equal to MCP's default may be left out (mcp/listed-schema.ts). */
export type ListedAnnotations = Partial<ToolAnnotations>;

/** A tools/call answer: text plus structured content, or a tool error (`isError`). */
export type ToolAnswer = {
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
};

export interface ToolRegistration {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  annotations: ListedAnnotations;
  call(args: Record<string, unknown>): Promise<ToolAnswer>;
}

/** One resources/read answer. */
export type ReadAnswer = {
  contents: { uri: string; mimeType: string; text: string }[];
};

export type ResourceMeta = {
  title: string;
  description: string;
  mimeType: string;
  annotations?: { audience: ("user" | "assistant")[]; priority: number };
};

/** An entry of resources/list, as a template's list callback returns it. */
export type ResourceEntry = {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
};

export type TemplateVariables = Record<string, string | string[]>;

/**
 * Values for one argument as typed so far (MCP `completion/complete`); `context.arguments` holds the
 * arguments already filled in. Each SDK adapter attaches it its own way (completable, ResourceTemplate).
 */
export type Completer = (value: string, context?: { arguments?: Record<string, string> }) => Promise<string[]>;

export interface TemplateRegistration {
  name: string;
  uriTemplate: string;
  meta: ResourceMeta;
  list(): Promise<{ resources: ResourceEntry[] }>;
  read(uri: URL, variables: TemplateVariables): Promise<ReadAnswer>;
  /** Completion per URI template variable. */
  complete?: Record<string, Completer>;
}

/** A prompts/get answer. */
export type PromptAnswer = {
  description: string;
  messages: { role: "user"; content: { type: "text"; text: string } }[];
};

export interface PromptRegistration {
  name: string;
  title: string;
  description: string;
  /** The arguments as a zod shape; v2 lists z.object(shape), v1 takes the shape itself. */
  args: z.ZodRawShape;
  get(args: Record<string, unknown>): Promise<PromptAnswer>;
  /** Completion per argument (a key of `args`). */
  complete?: Record<string, Completer>;
}

/** What registration needs of an McpServer, whichever SDK generation it comes from. */
export interface McpRegistrar {
  tool(tool: ToolRegistration): void;
  resource(name: string, uri: string, meta: ResourceMeta, read: (uri: URL) => Promise<ReadAnswer>): void;
  template(template: TemplateRegistration): void;
  prompt(prompt: PromptRegistration): void;
}
