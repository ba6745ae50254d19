export { UserMemory } from "./durable/user-memory";
import { DurableObject } from "cloudflare:workers";
export class LegacySseSession extends DurableObject {}
export default { fetch: () => new Response("ok") };
