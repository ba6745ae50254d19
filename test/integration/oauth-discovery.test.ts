import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ORIGIN, rawFetch } from "../helpers/oauth";

/** RFC 8414 §2 authorization server metadata, with the fields MCP clients rely on. */
const authorizationServerMetadata = z.object({
  issuer: z.url(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  registration_endpoint: z.url(),
  revocation_endpoint: z.url(),
  response_types_supported: z.array(z.string()).min(1),
  response_modes_supported: z.array(z.string()).optional(),
  grant_types_supported: z.array(z.string()).min(1),
  token_endpoint_auth_methods_supported: z.array(z.string()).min(1),
  code_challenge_methods_supported: z.array(z.string()).min(1),
  scopes_supported: z.array(z.string()).min(1),
  authorization_response_iss_parameter_supported: z.boolean(),
  client_id_metadata_document_supported: z.boolean(),
});

/** RFC 9728 §2 protected resource metadata. */
const protectedResourceMetadata = z.object({
  resource: z.url(),
  authorization_servers: z.array(z.url()).min(1),
  scopes_supported: z.array(z.string()).optional(),
  bearer_methods_supported: z.array(z.string()).optional(),
  resource_name: z.string().optional(),
});

function challengeParams(header: string | null): Record<string, string> {
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...header!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

describe("OAuth discovery documents", () => {
  it("RFC 8414 authorization server metadata validates and names this server's endpoints", async () => {
    const response = await rawFetch("/.well-known/oauth-authorization-server");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const doc = authorizationServerMetadata.parse(await response.json());
    // §3.3: the issuer is the URL the well-known path was appended to.
    expect(doc.issuer).toBe(ORIGIN);
    expect(doc.authorization_endpoint).toBe(`${ORIGIN}/authorize`);
    expect(doc.token_endpoint).toBe(`${ORIGIN}/oauth/token`);
    expect(doc.registration_endpoint).toBe(`${ORIGIN}/oauth/register`);
    expect(doc.revocation_endpoint).toBe(`${ORIGIN}/oauth/token`);
    expect(doc.response_types_supported).toEqual(["code"]);
    expect(doc.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
    expect(doc.grant_types_supported).not.toContain("implicit");
    expect(doc.grant_types_supported).not.toContain("password");
    // OAuth 2.1 / MCP: PKCE with S256 only, never "plain".
    expect(doc.code_challenge_methods_supported).toEqual(["S256"]);
    expect(doc.token_endpoint_auth_methods_supported).toContain("none");
    expect(doc.scopes_supported).toEqual(["memory:read", "memory:write"]);
    expect(doc.authorization_response_iss_parameter_supported).toBe(true);
    expect(doc.client_id_metadata_document_supported).toBe(true);
  });

  it.each(["/mcp", "/sse"])(
    "RFC 9728 protected resource metadata for %s validates and points at the issuer",
    async (path) => {
      const response = await rawFetch(`/.well-known/oauth-protected-resource${path}`);
      expect(response.status).toBe(200);
      const doc = protectedResourceMetadata.parse(await response.json());
      // §3.3: resource must equal the identifier the well-known URL was built from.
      expect(doc.resource).toBe(`${ORIGIN}${path}`);
      expect(doc.authorization_servers).toEqual([ORIGIN]);
      expect(doc.scopes_supported).toEqual(["memory:read", "memory:write"]);
      expect(doc.bearer_methods_supported).toEqual(["header"]);
      // Every listed authorization server publishes its metadata.
      const as = await rawFetch(
        `${new URL(doc.authorization_servers[0]).pathname.replace(/\/$/, "")}/.well-known/oauth-authorization-server`,
      );
      expect(as.status).toBe(200);
    },
  );

  it("has no document for paths that are not protected resources", async () => {
    expect((await rawFetch("/.well-known/oauth-protected-resource")).status).toBe(404);
    expect((await rawFetch("/.well-known/oauth-protected-resource/health")).status).toBe(404);
  });

  it.each([
    ["/mcp", "POST", "/mcp"],
    ["/sse", "GET", "/sse"],
    ["/sse/message?sessionId=x", "POST", "/sse"],
  ])("a 401 on %s carries WWW-Authenticate with resource_metadata for %s", async (path, method, resource) => {
    const response = await rawFetch(path, {
      method,
      headers: { "content-type": "application/json" },
      body: method === "POST" ? "{}" : undefined,
    });
    expect(response.status).toBe(401);
    const params = challengeParams(response.headers.get("www-authenticate"));
    expect(params.resource_metadata).toBe(`${ORIGIN}/.well-known/oauth-protected-resource${resource}`);
    expect(params.scope).toBe("memory:read memory:write");
    // The JSON body API-key clients already know stays the same.
    expect(await response.json()).toMatchObject({ error: "unauthorized" });
  });

  it("marks a bad bearer credential invalid_token in the challenge", async () => {
    const response = await rawFetch(
      "/mcp",
      { method: "POST", body: "{}" },
      { authorization: "Bearer someone:fake:token" },
    );
    expect(response.status).toBe(401);
    expect(challengeParams(response.headers.get("www-authenticate")).error).toBe("invalid_token");
  });
});
