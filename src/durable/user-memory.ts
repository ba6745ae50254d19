import { DurableObject } from "cloudflare:workers";
export class UserMemory extends DurableObject {}
