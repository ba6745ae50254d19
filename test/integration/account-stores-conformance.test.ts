/**
 * The account port conformance suites (test/conformance/{api-key,dashboard-session,
 * client-registration,sse-session}-store-suite.ts) over the D1 adapters the composition root builds
 * (storage/accounts/d1-*-store.ts), inside workerd on the real `DB` with every migration applied.
 */
import { env } from "cloudflare:workers";
import { D1ApiKeyStore } from "../../src/storage/accounts/d1-api-key-store";
import { D1ClientRegistrationStore } from "../../src/storage/accounts/d1-client-registration-store";
import { D1DashboardSessionStore } from "../../src/storage/accounts/d1-dashboard-session-store";
import { D1SseSessionStore } from "../../src/storage/accounts/d1-sse-session-store";
import { describeApiKeyStore } from "../conformance/api-key-store-suite";
import { describeClientRegistrationStore } from "../conformance/client-registration-store-suite";
import { describeDashboardSessionStore } from "../conformance/dashboard-session-store-suite";
import { describeSseSessionStore } from "../conformance/sse-session-store-suite";

describeApiKeyStore("D1ApiKeyStore", () => new D1ApiKeyStore(env.DB));
describeDashboardSessionStore("D1DashboardSessionStore", () => new D1DashboardSessionStore(env.DB));
describeClientRegistrationStore("D1ClientRegistrationStore", async () => {
  await env.DB.prepare("DELETE FROM oauth_client_registrations").run();
  return new D1ClientRegistrationStore(env.DB);
});
describeSseSessionStore("D1SseSessionStore", () => new D1SseSessionStore(env.DB));
