/**
 * @module index
 * Worker entry: wiring only. HTTP goes to the Hono app; Durable Object classes are exported here.
 */
import { buildApp } from "./http/app";
import type { Env } from "./env";

export { UserMemory } from "./durable/user-memory";
export { LegacySseSession } from "./mcp/legacy-sse";

const app = buildApp();

export default {
  fetch(request, env, ctx) {
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
