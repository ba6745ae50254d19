/**
 * @module scripts/lib/stress-fuzz-plan
 * The fuzzer's case mix over the four surfaces: MCP over /mcp (tool calls with one sure mutation,
 * broken envelopes, bad credentials, oversize bodies), the same messages over the legacy SSE
 * message endpoint (plus sessions the server never issued), /v1/import (bad lines, one bad line
 * among good ones, too many lines, bad query parameters) and the OAuth routes. Pure.
 */
import { envelopeCase, type FuzzAuth, type FuzzCase, redosInputs, toolCallCase } from "./stress-fuzz-cases.ts";
import type { Rng } from "./stress-prng.ts";

const JSON_TYPE = "application/json";

function mcpCase(rng: Rng, route: "mcp" | "sse"): FuzzCase {
  const path = route === "mcp" ? "/mcp" : "/sse/message";
  const session = route === "mcp" ? undefined : rng.weighted({ own: 17, unknown: 2, none: 1 } as const);
  const base = { route, method: "POST" as const, path, contentType: JSON_TYPE, session };
  const r = rng.int(20);
  if (r < 12) {
    const auth = rng.pick(["user", "app"] as const);
    return { ...base, auth, ...toolCallCase(rng, auth) };
  }
  if (r < 17) {
    const c = envelopeCase(rng);
    return {
      ...base,
      auth: rng.pick(["user", "app"] as const),
      body: c.body,
      kind: c.kind,
      notification: c.notification,
    };
  }
  if (r < 19) {
    const auth: FuzzAuth = rng.pick(["none", "forged"] as const);
    return { ...base, auth, body: toolCallCase(rng, "user").body, kind: `auth-${auth}` };
  }
  return { ...base, auth: "user", body: null, oversize: true, kind: "oversize-body" };
}

function importLine(rng: Rng): Record<string, unknown> {
  return { content: `fuzz import ${rng.token(8)} about walnut lanterns`, external_id: `fz-${rng.token(10)}` };
}

/** One sure fault in an import line. */
function badImportLine(rng: Rng): string {
  const line = importLine(rng);
  switch (rng.int(9)) {
    case 0:
      return rng.pick(["{", "[1,2]", "null", '"text"', "{'content':'x'}", "\u0000"]);
    case 1:
      delete line.content;
      return JSON.stringify(line);
    case 2:
      return JSON.stringify({ ...line, [`extra_${rng.token(3)}`]: 1 });
    case 3:
      return JSON.stringify({ ...line, content: rng.pick(redosInputs()) });
    case 4:
      return JSON.stringify({ ...line, priority: rng.pick([0, 7, "high"]) });
    case 5:
      return JSON.stringify({ ...line, external_id: rng.pick([" padded ", "a\u0000b", "x".repeat(129), ""]) });
    case 6:
      return JSON.stringify({ ...line, content: rng.pick(["", "   ", 5, null]) });
    case 7:
      return JSON.stringify({ ...line, created_at: rng.pick(["soon", "2026-99-01", 12]) });
    default:
      return JSON.stringify({ ...line, tags: rng.pick(["t", [""], [5]]) });
  }
}

function importCase(rng: Rng): FuzzCase {
  const auth = rng.pick(["user", "app"] as const);
  const query = auth === "app" ? "?user_id=fuzz-end-user" : "";
  const base = { route: "import" as const, method: "POST" as const, auth, contentType: "application/x-ndjson" };
  const r = rng.int(10);
  if (r < 5) {
    // One bad line among good ones: nothing of the body may be written.
    const lines = Array.from({ length: rng.between(1, 40) }, () => JSON.stringify(importLine(rng)));
    lines.splice(rng.int(lines.length + 1), 0, badImportLine(rng));
    return { ...base, path: `/v1/import${query}`, body: lines.join("\n"), kind: "one-bad-line" };
  }
  if (r === 5) return { ...base, path: `/v1/import${query}`, body: rng.pick(["", "\n\n", "   "]), kind: "empty-body" };
  if (r === 6) {
    const line = JSON.stringify({ content: "x" });
    return { ...base, path: `/v1/import${query}`, body: Array(5001).fill(line).join("\n"), kind: "too-many-lines" };
  }
  if (r === 7) return { ...base, path: `/v1/import${query}`, body: null, oversize: true, kind: "oversize-body" };
  if (r === 8) {
    const bad = rng.pick([
      "user_id=a%00b",
      "user_id=%F0%9F",
      "agent_id=x%0Ay",
      `user_id=${"u".repeat(200)}`,
      "user_id=",
    ]);
    const path = auth === "app" ? `/v1/import?${bad}` : `/v1/import?user_id=someone-else`;
    return { ...base, path, body: JSON.stringify(importLine(rng)), kind: "bad-query" };
  }
  return {
    ...base,
    auth: rng.pick(["none", "forged"]),
    path: "/v1/import",
    body: JSON.stringify(importLine(rng)),
    kind: "bad-auth",
  };
}

const FORM = "application/x-www-form-urlencoded";

function oauthCase(rng: Rng): FuzzCase {
  const base = { route: "oauth" as const, auth: "none" as const };
  const junk = () => rng.pick(["", "x", "\u0000", "%ZZ", "a".repeat(5000), "javascript:alert(1)"]);
  switch (rng.int(6)) {
    case 0:
      return {
        ...base,
        method: "POST",
        path: "/oauth/token",
        contentType: FORM,
        body: new URLSearchParams({
          grant_type: rng.pick(["authorization_code", "refresh_token", "password", "", "client_credentials"]),
          code: junk(),
          client_id: junk(),
          code_verifier: junk(),
          refresh_token: junk(),
        }).toString(),
        kind: "token-bad-grant",
      };
    case 1:
      return {
        ...base,
        method: "POST",
        path: "/oauth/token",
        contentType: JSON_TYPE,
        body: '{"grant_type":',
        kind: "token-json-junk",
      };
    case 2:
      return {
        ...base,
        method: "POST",
        path: "/oauth/register",
        contentType: JSON_TYPE,
        body: JSON.stringify({
          redirect_uris: rng.pick(["https://x", [], [5], ["javascript:alert(1)"], ["not a url"], null]),
          client_name: rng.pick([5, "x".repeat(300), "\u0000"]),
          token_endpoint_auth_method: rng.pick(["magic", 5]),
        }),
        kind: "register-bad-metadata",
      };
    case 3:
      return {
        ...base,
        method: "POST",
        path: "/oauth/register",
        contentType: JSON_TYPE,
        body: null,
        oversize: true,
        kind: "register-oversize",
      };
    case 4: {
      const q = new URLSearchParams({
        response_type: rng.pick(["code", "token", "", "id_token"]),
        client_id: junk(),
        redirect_uri: rng.pick(["https://evil.example/cb", "", "javascript:alert(1)"]),
        code_challenge: junk(),
        code_challenge_method: rng.pick(["S256", "plain", "md5"]),
        state: junk(),
      });
      return {
        ...base,
        method: "GET",
        path: `/authorize?${q}`,
        contentType: null,
        body: null,
        kind: "authorize-bad-params",
      };
    }
    default:
      return {
        ...base,
        method: "POST",
        path: "/authorize",
        contentType: FORM,
        body: new URLSearchParams({ view: junk(), key: rng.pick(["hc_nope", "", junk()]), action: junk() }).toString(),
        kind: "authorize-bad-form",
      };
  }
}

/** `n` cases: about 55% /mcp, 15% /sse, 20% /v1/import, 10% OAuth. */
export function fuzzCases(rng: Rng, n: number): FuzzCase[] {
  return Array.from({ length: n }, () => {
    const r = rng.int(20);
    if (r < 11) return mcpCase(rng, "mcp");
    if (r < 14) return mcpCase(rng, "sse");
    if (r < 18) return importCase(rng);
    return oauthCase(rng);
  });
}
