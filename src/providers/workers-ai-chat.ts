/**
 * @module providers/workers-ai-chat
 * One JSON-mode chat call to a Workers AI model. The request is built as the model's own input type
 * (OpenAI-style `response_format: {type: "json_schema", json_schema: {name, schema, strict}}`, a token
 * budget, reasoning switched off so the budget goes to the answer); the answer is read from the
 * model's own output type (`choices[0].message.content`, or a tool call's arguments) and checked with
 * zod. Every failure — a thrown error (429, capacity, a removed model), a timeout, a refusal, an answer
 * cut at the token limit or not matching the schema — comes back as a reason, never as an exception,
 * so the caller can fall back to the rules.
 */
import { z } from "zod";
import { AiTimeoutError, withAiTimeout } from "./ai-timeout";
import { type CircuitBreaker, CircuitOpenError } from "./gate/circuit-breaker";
import type { AiChatBinding, LlmModel } from "./workers-ai-models";

/** Why a chat call has no answer; "skipped": the provider's circuit breaker is open (gate/circuit-breaker.ts). */
export type ChatFailure = "error" | "timeout" | "refused" | "truncated" | "malformed" | "skipped";
export type ChatResult<T> = { ok: true; value: T } | { ok: false; reason: ChatFailure; code?: string };

export interface ChatRequest<T> {
  /** The json_schema name (letters, digits, _ and -), also the task name in logs. */
  name: string;
  schema: z.ZodType<T>;
  system: string;
  user: string;
  maxTokens: number;
}

type ChatInput = AiModels[LlmModel]["inputs"];
type ChatOutput = AiModels[LlmModel]["postProcessedOutputs"];

/** Every answer shape ChatCompletionsOutput allows (the `satisfies` in readAnswer keeps this in step with the types). */
const chatOutput = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullable().optional(),
        message: z.object({
          content: z
            .union([z.string(), z.array(z.object({ text: z.string().optional() }).loose())])
            .nullable()
            .optional(),
          refusal: z.string().nullable().optional(),
          tool_calls: z
            .array(z.object({ function: z.object({ arguments: z.string() }).loose().optional() }).loose())
            .optional(),
        }),
      }),
    )
    .min(1),
});

/** What every JSON chat request holds, Workers AI's and OpenAI's alike: messages, schema, budget. */
export function jsonChatFields<T>(req: ChatRequest<T>) {
  return {
    messages: [
      { role: "system" as const, content: req.system },
      { role: "user" as const, content: req.user },
    ],
    response_format: {
      type: "json_schema" as const,
      json_schema: { name: req.name, schema: jsonSchemaOf(req.schema), strict: true },
    },
    max_tokens: req.maxTokens,
    temperature: 0,
  };
}

export function chatInput<T>(req: ChatRequest<T>): ChatInput {
  return {
    ...jsonChatFields(req),
    // All three supported models take it; with reasoning on, thinking tokens would eat max_tokens.
    chat_template_kwargs: { enable_thinking: false },
  };
}

export async function chatJson<T>(
  ai: AiChatBinding,
  model: LlmModel,
  req: ChatRequest<T>,
  timeoutMs: number,
  breaker?: CircuitBreaker,
): Promise<ChatResult<T>> {
  let output: ChatOutput;
  try {
    output = await withAiTimeout(timeoutMs, (signal) => ai.run(model, chatInput(req), { signal }), breaker);
  } catch (err) {
    if (err instanceof CircuitOpenError) return { ok: false, reason: "skipped" };
    return err instanceof AiTimeoutError
      ? { ok: false, reason: "timeout" }
      : { ok: false, reason: "error", code: errorCode(err) };
  }
  return readAnswer(output, req.schema);
}

/** The answer in a Workers AI output (typed by the model's own output type). */
export function readAnswer<T>(output: ChatOutput, schema: z.ZodType<T>): ChatResult<T> {
  return readChatAnswer(output satisfies z.input<typeof chatOutput>, schema);
}

/**
 * The answer in a chat-completions body of any origin (Workers AI's output, an OpenAI-compatible
 * server's JSON): content text (or parts), else the first tool call's arguments, checked with zod.
 */
export function readChatAnswer<T>(body: unknown, schema: z.ZodType<T>): ChatResult<T> {
  const parsed = chatOutput.safeParse(body);
  if (!parsed.success) return { ok: false, reason: "malformed" };
  const [choice] = parsed.data.choices;
  const { content, refusal, tool_calls } = choice.message;
  const text = typeof content === "string" ? content : (content ?? []).map((p) => p.text ?? "").join("");
  const raw = text.trim() !== "" ? text : (tool_calls?.[0]?.function?.arguments ?? "");
  if (raw.trim() === "") return { ok: false, reason: refusal ? "refused" : "malformed" };
  const value = schema.safeParse(parseJson(raw));
  if (value.success) return { ok: true, value: value.data };
  return { ok: false, reason: choice.finish_reason === "length" ? "truncated" : "malformed" };
}

/** JSON inside an answer: a leading reasoning block and Markdown fences are cut (indexOf, linear). */
function parseJson(text: string): unknown {
  const thinkEnd = text.indexOf("</think>");
  const body = thinkEnd >= 0 ? text.slice(thinkEnd + "</think>".length) : text;
  const start = body.indexOf("{");
  const end = body.lastIndexOf("}");
  if (start < 0 || end < start) return null;
  try {
    return JSON.parse(body.slice(start, end + 1));
  } catch {
    return null;
  }
}

/** A Workers AI error's numeric code (e.g. 3040 capacity, 5007 no such model) for logs; never its text. */
function errorCode(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = /^\D{0,40}?(\d{3,4})\b/.exec(message.slice(0, 60));
  return code ? code[1] : err instanceof Error ? err.name : "unknown";
}

const jsonSchemas = new WeakMap<object, Record<string, unknown>>();

/** The JSON Schema for response_format, derived once from the zod schema that validates the answer. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  let hit = jsonSchemas.get(schema);
  if (!hit) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
    jsonSchemas.set(schema, (hit = rest));
  }
  return hit;
}
