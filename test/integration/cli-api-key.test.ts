/**
 * A key made by the keys CLI's own code (scripts/lib/api-keys.ts: the row and INSERT it sends to D1)
 * authenticates against the Worker, over HTTP and through the auth function, so the format the CLI
 * writes and the one auth reads cannot drift apart.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INSERT_KEYS, newKeyRow } from "../../scripts/lib/api-keys";
import { principalFromKey } from "../../src/http/auth";
import { D1ApiKeyStore } from "../../src/storage/accounts/d1-api-key-store";
import { uniqueUser } from "../helpers/api-keys";

async function cliKey(scope: "user" | "app", name: string) {
  const made = await newKeyRow({ scope, name, account: "cli-test", label: "made by the CLI" }, Date.now());
  await env.DB.prepare(`${INSERT_KEYS} (${made.values})`).run();
  return made;
}

describe("a key made by the keys CLI", () => {
  it("authenticates as its user", async () => {
    const user = uniqueUser("cli");
    const { id, key } = await cliKey("user", user);
    const auth = await principalFromKey(new D1ApiKeyStore(env.DB), key, Date.now(), () => {});
    expect(auth?.principal).toMatchObject({
      accountId: "cli-test",
      scope: "user",
      userId: user,
      keyId: id,
      canWrite: true,
    });
  });

  it("authenticates an MCP request, and a changed character does not", async () => {
    const { key } = await cliKey("app", "cli-app");
    const initialize = (bearer: string) =>
      exports.default.fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: {
            host: "localhost",
            authorization: `Bearer ${bearer}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
          }),
        }),
      );
    expect((await initialize(key)).status).toBe(200);
    const other = key.slice(0, -1) + (key.endsWith("0") ? "1" : "0");
    expect((await initialize(other)).status).toBe(401);
  });
});
