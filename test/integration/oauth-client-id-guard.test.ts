/**
 * A client_id longer than a KV key may be used to answer 500 (KV refused the lookup); the
 * reliability run's fuzzer found it. Now it is the client's error on both endpoints.
 */
import { describe, expect, it } from "vitest";
import { CLIENT_ID_MAX_BYTES } from "../../src/http/oauth/client-id-guard";
import { browserFetch, ORIGIN, openConsentPage, tokenRequest, uniqueIp } from "../helpers/oauth";

const longId = "c".repeat(5000);

describe("an oversize OAuth client_id", () => {
  it("gets invalid_request from the token endpoint, in a form body or in Basic auth", async () => {
    const form = await tokenRequest({ grant_type: "authorization_code", code: "x", client_id: longId }, uniqueIp());
    expect(form.status).toBe(400);
    expect(await form.json()).toMatchObject({ error: "invalid_request" });
    const basic = await browserFetch(uniqueIp())(`${ORIGIN}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${longId}:s`)}` },
      body: "grant_type=authorization_code&code=x",
    });
    expect(basic.status).toBe(400);
    expect(await basic.json()).toMatchObject({ error: "invalid_request" });
  });

  it("gets the authorization page's own 400, not a 500", async () => {
    const url = new URL(`${ORIGIN}/authorize`);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: longId,
      redirect_uri: "https://x.example/cb",
    }).toString();
    const page = await openConsentPage(url, uniqueIp());
    expect(page.status).toBe(400);
    expect(page.html).toContain(`at most ${CLIENT_ID_MAX_BYTES} bytes`);
  });

  it("at the limit, still reaches the library (an unknown client, not a length error)", async () => {
    const url = new URL(`${ORIGIN}/authorize`);
    url.search = new URLSearchParams({ response_type: "code", client_id: "c".repeat(CLIENT_ID_MAX_BYTES) }).toString();
    const page = await openConsentPage(url, uniqueIp());
    expect(page.status).toBe(400);
    expect(page.html).not.toContain("bytes");
  });
});
