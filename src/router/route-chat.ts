/**
 * @module router/route-chat
 * One routed chat turn, transport-neutral (Web Request/Response in, Response out) and the same for
 * every chat API the router speaks (router/chat-dialect.ts): the last user message recalled in the
 * caller's Durable Object (progressive per conversation), the memories put before the conversation
 * as dated data, the request sent to the upstream with the operator's key, the answer passed back
 * chunk by chunk as it comes, and, once it is complete, the conversation's unsaved user messages
 * saved in the background. Recall that fails degrades to no memories; saving never delays, fails or
 * changes the answer. Memory text and keys never reach a log.
 */
import type { CallerContext } from "../access/principal";
import { resolveScope, type ScopeArgs } from "../access/scope";
import { withMemory } from "../access/user-memory-client";
import type { Config } from "../config";
import { consoleLogger } from "../console-logger";
import type { Env } from "../env";
import { MemoryError } from "../memory/errors";
import { ID_RULE, principalIdSchema } from "../memory/ids";
import { estimateTokens } from "../memory/text/token-estimate";
import type { ChatDialect, ReadRequest } from "./chat-dialect";
import type { ChatUpstream } from "./chat-upstream";
import { conversationId, routerSource } from "./conversation-id";
import { frameMemories } from "./memory-frame";
import { type MemoryMode, memoryMode } from "./memory-mode";
import { errorTypeOf } from "./openai-error";
import { type RouterMessages, routerMessages } from "./router-messages";
import { type RelayEnd, relay } from "./stream-relay";

export const MEMORY_HEADER = "X-Hippocampus-Memory";
export const MEMORIES_HEADER = "X-Hippocampus-Memories";
export const CONVERSATION_HEADER = "X-Conversation-Id";

/** The most of an upstream error body passed on (an error is short; a gateway's HTML page need not be). */
const UPSTREAM_ERROR_MAX_BYTES = 65_536;
/** Upstream answer headers a client may use: the rest (cookies, the upstream's own routing) stays behind. */
const PASSED_HEADERS =
  /^(content-type|retry-after|x-request-id|request-id|openai-[a-z-]+|x-ratelimit-[a-z-]+|anthropic-ratelimit-[a-z-]+)$/;

export interface RouteContext {
  env: Env;
  config: Config;
  caller: CallerContext;
  /** Keeps background work (the save) alive after the answer is sent. */
  waitUntil: (work: Promise<unknown>) => void;
  /** Aborts when the client disconnects. */
  signal: AbortSignal;
  /** Records a Server-Timing metric. */
  metric: (name: string, ms: number, description?: string) => void;
}

interface Turn {
  conversation: string;
  scopeArgs: ScopeArgs;
  mode: MemoryMode;
  userMessages: string[];
}

/** The var that gives the OpenAI-compatible routes an upstream, as the 503 names it. */
export function upstreamVariable(config: Config): string {
  return config.ROUTER_UPSTREAM === "workers-ai" ? "the AI binding" : "ROUTER_UPSTREAM_BASE_URL";
}

/** The error a MemoryError (scope resolution) becomes in the dialect's shape; the end-user field keeps its own name. */
export function memoryErrorResponse(dialect: ChatDialect, err: MemoryError, status: number): Response {
  const isUser = err.field === "user_id";
  const param = isUser ? dialect.userField : (err.field ?? null);
  const message = isUser ? err.message.replace(/^user_id/, dialect.userField) : err.message;
  return dialect.error(status, message, errorTypeOf(status), param, err.code);
}

/** The request's checks before anything is called: its body, its headers, the caller's scope. */
async function readTurn(
  ctx: RouteContext,
  dialect: ChatDialect,
  body: unknown,
  headers: Headers,
  text: RouterMessages,
): Promise<{ request: ReadRequest; turn: Turn } | Response> {
  const read = dialect.read(body);
  if (!read.ok)
    return dialect.error(400, `${read.param || "body"}: ${read.message}`, "invalid_request_error", read.param || null);
  const { request } = read;
  const mode = memoryMode(headers.get(MEMORY_HEADER), ctx.caller.principal.canWrite);
  if (mode === null)
    return dialect.error(
      400,
      text.badHeader(MEMORY_HEADER, "must be on, read or off"),
      "invalid_request_error",
      MEMORY_HEADER,
    );
  let scopeArgs: ScopeArgs = {};
  if (ctx.caller.principal.scope === "app" && request.user !== undefined) {
    const user = principalIdSchema.safeParse(request.user);
    if (!user.success)
      return dialect.error(
        400,
        `${dialect.userField}: ${ID_RULE}`,
        "invalid_request_error",
        dialect.userField,
        "invalid_value",
      );
    scopeArgs = { user_id: user.data };
  }
  const userMessages = request.messages.filter((m) => m.role === "user").map((m) => m.text);
  const id = await conversationId(headers.get(CONVERSATION_HEADER), userMessages[0] ?? "");
  if (!id.ok)
    return dialect.error(
      400,
      text.badHeader(CONVERSATION_HEADER, id.rule),
      "invalid_request_error",
      CONVERSATION_HEADER,
    );
  return { request, turn: { conversation: id.id, scopeArgs, mode, userMessages } };
}

/** The last user message's text, or null when the request has none with text. */
function lastUserText(request: ReadRequest): string | null {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    if (request.messages[i].role !== "user") continue;
    const text = request.messages[i].text.trim();
    return text === "" ? null : text;
  }
  return null;
}

/** The memories for this turn as one frame, or none; a recall that fails degrades to none. */
async function recallFrame(ctx: RouteContext, request: ReadRequest, turn: Turn, text: RouterMessages) {
  const query = lastUserText(request);
  if (turn.mode === "off" || query === null) return { content: null, count: 0 };
  const started = performance.now();
  try {
    const budget = ctx.config.ROUTER_MEMORY_TOKENS;
    const recalled = await withMemory(ctx, turn.scopeArgs, (stub, scope) =>
      stub.recallForConversation(scope, {
        query,
        conversation: turn.conversation,
        budgetTokens: Math.max(1, budget - estimateTokens(text.frameIntro) - 8),
      }),
    );
    return frameMemories(recalled.memories, budget, text);
  } catch (err) {
    consoleLogger.warn("router recall failed; answering without memories", {
      code: err instanceof MemoryError ? err.code : "internal",
    });
    return { content: null, count: 0 };
  } finally {
    ctx.metric("recall", performance.now() - started, "memory recall before the upstream");
  }
}

/** After a complete answer: the turn's unsaved user messages through the summarize pipeline, in the background. */
function saveAfter(ctx: RouteContext, turn: Turn, ended: Promise<RelayEnd>): void {
  if (turn.mode !== "on" || turn.userMessages.length === 0) return;
  const work = ended.then(async (end) => {
    if (end !== "complete") return;
    try {
      await withMemory(ctx, turn.scopeArgs, (stub, scope) =>
        stub.saveConversation(scope, {
          conversation: turn.conversation,
          userMessages: turn.userMessages,
          source: routerSource(turn.conversation),
        }),
      );
    } catch (err) {
      consoleLogger.warn("router save failed", { code: err instanceof MemoryError ? err.code : "internal" });
    }
  });
  ctx.waitUntil(work);
}

/** The upstream answer's headers a client may use, beside the router's own. */
function passedHeaders(res: Response, extra: Record<string, string>): Record<string, string> {
  const passed: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (PASSED_HEADERS.test(name)) passed[name] = value;
  });
  return { ...passed, ...extra };
}

/** The upstream's error, status kept: its own body when in the dialect's shape, else one in that shape. */
async function upstreamError(
  dialect: ChatDialect,
  res: Response,
  extra: Record<string, string>,
  text: RouterMessages,
): Promise<Response> {
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader && size < UPSTREAM_ERROR_MAX_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader?.cancel().catch(() => undefined);
  const raw = new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
  try {
    if (dialect.isErrorBody(JSON.parse(raw) as unknown))
      return new Response(raw, { status: res.status, headers: { ...extra, "content-type": "application/json" } });
  } catch {
    // not JSON: answered in the dialect's shape below
  }
  return dialect.error(res.status, text.upstreamStatus(res.status), "upstream_error", null, null, extra);
}

/** A controller aborted by the client's disconnect or the router's time bound, whichever comes first. */
function boundedSignal(ctx: RouteContext): { controller: AbortController; timedOut: () => boolean; clear: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("router timeout"));
  }, ctx.config.ROUTER_TIMEOUT_SECONDS * 1000);
  const onAbort = () => controller.abort(new Error("client disconnected"));
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  return {
    controller,
    timedOut: () => timedOut,
    clear: () => {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
    },
  };
}

export async function routeChat(
  ctx: RouteContext,
  dialect: ChatDialect,
  body: unknown,
  headers: Headers,
): Promise<Response> {
  const text = routerMessages(ctx.config.LOCALE);
  if (dialect.send === null)
    return dialect.error(503, text.noUpstream(dialect.upstreamVariable), "server_error", null, "router_not_configured");
  const read = await readTurn(ctx, dialect, body, headers, text);
  if (read instanceof Response) return read;
  const { request, turn } = read;
  if (turn.mode !== "off") resolveScope(ctx, turn.scopeArgs); // a MemoryError: the caller's mistake, answered 400/403
  const frame = await recallFrame(ctx, request, turn, text);
  const outgoing = frame.content === null ? request.body : dialect.inject(request.body, frame.content);
  const extra = { [MEMORIES_HEADER]: String(frame.count), [CONVERSATION_HEADER]: turn.conversation };
  const bound = boundedSignal(ctx);
  const seconds = ctx.config.ROUTER_TIMEOUT_SECONDS;
  let res: Response;
  try {
    res = await dialect.send(outgoing, bound.controller.signal);
  } catch {
    bound.clear();
    return bound.timedOut()
      ? dialect.error(504, text.upstreamTimeout(seconds), "upstream_error", null, "upstream_timeout", extra)
      : dialect.error(502, text.upstreamUnreachable, "upstream_error", null, "upstream_unreachable", extra);
  }
  const passed = passedHeaders(res, extra);
  if (!res.ok || res.body === null) {
    try {
      return await upstreamError(dialect, res, passed, text);
    } catch {
      return dialect.error(504, text.upstreamTimeout(seconds), "upstream_error", null, "upstream_timeout", extra);
    } finally {
      bound.clear();
    }
  }
  let settle: (end: RelayEnd) => void = () => undefined;
  const ended = new Promise<RelayEnd>((resolve) => {
    settle = resolve;
  });
  const out = relay(res.body, (end) => {
    bound.clear();
    settle(end);
  });
  saveAfter(ctx, turn, ended);
  return new Response(out, { status: res.status, headers: passed });
}

/** GET /v1/models: the upstream's list as it answers it (OpenAI's dialect: its errors, its 503). */
export async function routeModels(
  ctx: RouteContext,
  upstream: ChatUpstream | null,
  dialect: ChatDialect,
): Promise<Response> {
  const text = routerMessages(ctx.config.LOCALE);
  if (upstream === null)
    return dialect.error(503, text.noUpstream(dialect.upstreamVariable), "server_error", null, "router_not_configured");
  const bound = boundedSignal(ctx);
  try {
    const res = await upstream.models(bound.controller.signal);
    if (!res.ok) return await upstreamError(dialect, res, {}, text);
    const body = await res.text();
    return new Response(body, { status: res.status, headers: { "content-type": "application/json" } });
  } catch {
    return dialect.error(502, text.upstreamUnreachable, "upstream_error", null, "upstream_unreachable");
  } finally {
    bound.clear();
  }
}
