/**
 * @module index
 * Worker entry: wiring only. HTTP goes to the Hono app, the Cron Trigger to the lifecycle fan-out
 * (jobs/scheduled.ts); Durable Object classes are exported here.
 */

import { buildLifecycleScan, buildRouteServices } from "./composition";
import type { Env } from "./env";
import { buildApp } from "./http/app";
import { runScheduledMaintenance } from "./jobs/scheduled";
import { asInvocation } from "./platform-limits/invocation";

export { UserMemory } from "./durable/user-memory";
export { LegacySseSession } from "./mcp/legacy-sse";

const app = buildApp({ routeServices: buildRouteServices });

export default {
  fetch(request, env, ctx) {
    return asInvocation(env, (limited) => app.fetch(request, limited, ctx));
  },
  async scheduled(controller, env) {
    // Number(): epoch ms in production; local test harnesses may hand the Date they were given.
    await asInvocation(env, (limited) =>
      runScheduledMaintenance(limited, Number(controller.scheduledTime), { scan: buildLifecycleScan }),
    );
  },
} satisfies ExportedHandler<Env>;
