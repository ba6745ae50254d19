/**
 * @module providers/openai-compatible/openai-compatible-http
 * One POST to an OpenAI-compatible server (Ollama, vLLM, LM Studio, Cloudflare AI Gateway, OpenAI):
 * `<base URL><path>` with a JSON body, `Authorization: Bearer <key>` when a key is set, bounded by a
 * timeout cut to the tool call's deadline and a circuit breaker (providers/ai-timeout.ts). Redirects
 * are followed within the base URL's origin only (gate/same-origin-fetch.ts) and the answer is read
 * as a stream up to a byte cap (gate/upstream-body.ts) before it is parsed. A non-2xx status, a body
 * that is not JSON, too large or redirected elsewhere is an OpenAiCompatibleError carrying the
 * status only: a server's error text can echo the request, and memory text never reaches a log.
 */
import { withAiTimeout } from "../ai-timeout";
import type { CircuitBreaker } from "../gate/circuit-breaker";
import { sameOriginFetch, UpstreamRedirectError } from "../gate/same-origin-fetch";
import { readTextCapped, UpstreamTooLargeError } from "../gate/upstream-body";

/**
 * Largest answer read: 8 MiB. A full embeddings batch (100 texts) of 3,072 dimensions is ~6 MB of
 * JSON; bge-m3's 1,024 about 2 MB; a chat answer of 8,192 tokens about 40 KB.
 */
export const UPSTREAM_MAX_BYTES = 8 * 1024 * 1024;

export interface OpenAiCompatibleEndpoint {
  /** e.g. http://127.0.0.1:11434/v1 (the part before /embeddings and /chat/completions). */
  baseUrl: string;
  /** Sent as a Bearer token when set (Ollama needs none). */
  apiKey?: string;
  /** The fetch to use; the Worker's global one unless a test or a service binding supplies another. */
  fetcher?: typeof fetch;
  /** Skips this server for a while after repeated failures (one per adapter, so per Durable Object). */
  breaker?: CircuitBreaker;
  /** Largest answer read (UPSTREAM_MAX_BYTES when unset). */
  maxBytes?: number;
}

export class OpenAiCompatibleError extends Error {
  constructor(
    /** The HTTP status, or null when no answer came (refused, unreachable, not JSON). */
    readonly status: number | null,
    message: string,
  ) {
    super(message);
    this.name = "OpenAiCompatibleError";
  }
}

/** `base` + `path` with exactly one slash between them. */
export function endpointUrl(base: string, path: string): string {
  return `${base.endsWith("/") ? base.slice(0, -1) : base}${path}`;
}

/**
 * POSTs `body` as JSON and answers the parsed JSON body; throws OpenAiCompatibleError,
 * AiTimeoutError or CircuitOpenError. `maxBytes` lowers the cap for this call (an embeddings answer
 * can be no larger than its vectors).
 */
export async function postJson(
  endpoint: OpenAiCompatibleEndpoint,
  path: string,
  body: unknown,
  timeoutMs: number,
  maxBytes?: number,
): Promise<unknown> {
  const send = endpoint.fetcher ?? fetch;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  const cap = Math.min(maxBytes ?? Number.POSITIVE_INFINITY, endpoint.maxBytes ?? UPSTREAM_MAX_BYTES);
  return withAiTimeout(
    timeoutMs,
    async (signal) => {
      let res: Response;
      try {
        res = await sameOriginFetch(send, endpointUrl(endpoint.baseUrl, path), {
          method: "POST",
          headers,
          body: JSON.stringify(body),
          signal,
        });
      } catch (err) {
        if (err instanceof UpstreamRedirectError) throw new OpenAiCompatibleError(err.status, err.message);
        throw new OpenAiCompatibleError(null, `unreachable (${(err as Error).name})`);
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new OpenAiCompatibleError(res.status, `HTTP ${res.status}`);
      }
      let text: string;
      try {
        text = await readTextCapped(res, cap, signal);
      } catch (err) {
        if (err instanceof UpstreamTooLargeError) throw new OpenAiCompatibleError(res.status, err.message);
        throw new OpenAiCompatibleError(res.status, `the answer broke off (${(err as Error).name})`);
      }
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new OpenAiCompatibleError(res.status, "the answer is not JSON");
      }
    },
    endpoint.breaker,
  );
}
