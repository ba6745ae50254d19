/**
 * @module mcp/json-answer
 * The 2025-era (legacy, stateless) lane of POST /mcp answered with one `application/json` body
 * instead of an event stream, as Streamable HTTP allows when the client's Accept lists it (and a
 * 2025-era client must list both). agents' `createMcpHandler` serves that lane only as a stream
 * (it refuses `enableJsonResponse`), which the Worker then reads through two stream wrappers and
 * again whole for Server-Timing; here the SDK's own transport answers with `enableJsonResponse`.
 * Everything else (the 2026-era lane, GET/DELETE, an Accept without application/json) stays with
 * agents' handler. The checks agents runs before its lanes are kept: the Host check for a local or
 * workers.dev endpoint (Origin is not checked: /mcp allows every origin, http/mcp-cors.ts), and a
 * server-to-client request fails at once instead of waiting for an answer that has no way back.
 */
import {
  hostHeaderValidationResponse,
  isJSONRPCRequest,
  isLegacyRequest,
  localhostAllowedHostnames,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { consoleLogger } from "../console-logger";

/** A POST whose Accept lists application/json: the only requests this lane may take. */
export function acceptsJsonAnswer(request: Request): boolean {
  return request.method === "POST" && (request.headers.get("accept") ?? "").includes("application/json");
}

/** What agents' handler answers a Host it refuses with (a local or workers.dev endpoint only). */
export function hostRejection(request: Request): Response | undefined {
  const { hostname } = new URL(request.url);
  const local = localhostAllowedHostnames();
  if (local.includes(hostname)) return hostHeaderValidationResponse(request, local);
  if (hostname.endsWith(".workers.dev")) return hostHeaderValidationResponse(request, [hostname]);
  return undefined;
}

/** The body, read once: its text, and its JSON when it parses (else the transport answers the error). */
interface ReadBody {
  text: string;
  json?: { value: unknown };
}

async function readBody(request: Request): Promise<ReadBody> {
  const text = await request.text();
  try {
    return text.length === 0 ? { text } : { text, json: { value: JSON.parse(text) } };
  } catch {
    return { text };
  }
}

/** The id a JSON-RPC error answers: the request's, when the body is one request with a usable id. */
function requestId(body: ReadBody): string | number | null {
  const value = body.json?.value;
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("id" in value)) return null;
  return typeof value.id === "string" || typeof value.id === "number" ? value.id : null;
}

function internalError(body: ReadBody): Response {
  const error = { code: -32603, message: "Internal server error" };
  return Response.json({ jsonrpc: "2.0", error, id: requestId(body) }, { status: 500 });
}

/** A transport that answers in JSON and fails any request the server would send the client. */
function jsonTransport(): WebStandardStreamableHTTPServerTransport {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if (!isJSONRPCRequest(message)) return send(message, options);
    // Stateless and answered in one body: the client's reply would have no way back.
    const error = { code: -32603, message: "Server-to-client requests are unavailable on a stateless /mcp request." };
    transport.onmessage?.({ jsonrpc: "2.0", id: message.id, error });
  };
  return transport;
}

/**
 * One exchange on a fresh server and transport. In JSON mode the transport resolves once every
 * answer is in, so nothing is left to close on success: like the SDK's own stateless Workers
 * example, the pair is simply dropped (closing it built an SdkError and settled empty handler maps,
 * ~4% of a recall's isolate CPU). A failure closes both before answering 500.
 */
async function answer(request: Request, body: ReadBody, server: McpServer): Promise<Response> {
  const transport = jsonTransport();
  try {
    await server.connect(transport);
    // Not JSON: the transport reads the text again and gives the client its parse error.
    return body.json
      ? await transport.handleRequest(request, { parsedBody: body.json.value })
      : await transport.handleRequest(new Request(request, { body: body.text }));
  } catch (err) {
    consoleLogger.error("mcp json answer failed", { error: err });
    await Promise.all([transport.close().catch(() => {}), server.close().catch(() => {})]);
    return internalError(body);
  }
}

/**
 * Serves `request` in this lane when it belongs here; otherwise calls `fallback` with a request
 * whose body can still be read.
 */
export async function serveJsonOrFallback(
  request: Request,
  buildServer: () => McpServer,
  fallback: (request: Request) => Promise<Response>,
): Promise<Response> {
  if (!acceptsJsonAnswer(request)) return fallback(request);
  const refused = hostRejection(request);
  if (refused) return refused;
  const body = await readBody(request);
  // The SDK's own era test (a body that is not JSON is legacy traffic), on the body already read.
  const legacy = !body.json || (await isLegacyRequest(request, body.json.value));
  if (!legacy) return fallback(new Request(request, { body: body.text }));
  return answer(request, body, buildServer());
}
