/**
 * @module providers/openai-compatible/openai-compatible-http
 * One POST to an OpenAI-compatible server (Ollama, vLLM, LM Studio, Cloudflare AI Gateway, OpenAI):
 * `<base URL><path>` with a JSON body, `Authorization: Bearer <key>` when a key is set, bounded by a
 * timeout (providers/ai-timeout.ts). A non-2xx status or a body that is not JSON is an
 * OpenAiCompatibleError carrying the status only: a server's error text can echo the request, and
 * memory text never reaches a log.
 */
import { withAiTimeout } from "../ai-timeout";

export interface OpenAiCompatibleEndpoint {
  /** e.g. http://127.0.0.1:11434/v1 (the part before /embeddings and /chat/completions). */
  baseUrl: string;
  /** Sent as a Bearer token when set (Ollama needs none). */
  apiKey?: string;
  /** The fetch to use; the Worker's global one unless a test or a service binding supplies another. */
  fetcher?: typeof fetch;
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

/** POSTs `body` as JSON and answers the parsed JSON body; throws OpenAiCompatibleError or AiTimeoutError. */
export async function postJson(
  endpoint: OpenAiCompatibleEndpoint,
  path: string,
  body: unknown,
  timeoutMs: number,
): Promise<unknown> {
  const send = endpoint.fetcher ?? fetch;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  return withAiTimeout(timeoutMs, async (signal) => {
    let res: Response;
    try {
      res = await send(endpointUrl(endpoint.baseUrl, path), {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal,
      });
    } catch (err) {
      throw new OpenAiCompatibleError(null, `unreachable (${(err as Error).name})`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new OpenAiCompatibleError(res.status, `HTTP ${res.status}`);
    }
    try {
      return (await res.json()) as unknown;
    } catch {
      throw new OpenAiCompatibleError(res.status, "the answer is not JSON");
    }
  });
}
