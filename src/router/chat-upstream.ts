/**
 * @module router/chat-upstream
 * Where the memory router sends a chat request: a port answering OpenAI-shaped Responses for
 * `POST /chat/completions` and `GET /models`, and its adapter for any OpenAI-compatible server
 * (OpenAI, DeepSeek, Moonshot, DashScope, OpenRouter, Ollama, vLLM, Cloudflare AI Gateway) at
 * ROUTER_UPSTREAM_BASE_URL with the operator's key ROUTER_UPSTREAM_API_KEY. Only that key travels
 * upstream: the client's Hippocampus key never does (the request is built here, not copied).
 */
import { endpointUrl } from "../providers/openai-compatible/openai-compatible-http";

export interface ChatUpstream {
  /** The upstream's answer as it comes (status, headers and body untouched); throws when it cannot be reached. */
  chat(body: Record<string, unknown>, signal: AbortSignal): Promise<Response>;
  models(signal: AbortSignal): Promise<Response>;
}

export class OpenAiCompatibleUpstream implements ChatUpstream {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  private headers(accept: string, json: boolean): Headers {
    const headers = new Headers({ accept });
    if (json) headers.set("content-type", "application/json");
    if (this.apiKey) headers.set("authorization", `Bearer ${this.apiKey}`);
    return headers;
  }

  chat(body: Record<string, unknown>, signal: AbortSignal): Promise<Response> {
    return this.fetcher(endpointUrl(this.baseUrl, "/chat/completions"), {
      method: "POST",
      headers: this.headers("application/json, text/event-stream", true),
      body: JSON.stringify(body),
      signal,
    });
  }

  models(signal: AbortSignal): Promise<Response> {
    return this.fetcher(endpointUrl(this.baseUrl, "/models"), {
      method: "GET",
      headers: this.headers("application/json", false),
      signal,
    });
  }
}
