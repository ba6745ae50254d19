/**
 * @module config
 * Wrangler vars parsed once with zod into typed config. Unknown or malformed values fail loudly at
 * startup instead of degrading silently.
 */
import { z } from "zod";

const onOff = z.enum(["on", "off"]);
const intFrom = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

const configSchema = z.object({
  EMBEDDING_PROVIDER: z.enum(["workers-ai", "local"]).default("local"),
  EMBEDDING_MODEL: z.string().min(1).default("local-hash-v1"),
  EMBEDDING_DIMENSIONS: intFrom(0, 0, 4096),
  VECTOR_INDEX: z.enum(["vectorize", "local"]).default("local"),
  RERANKER: z.enum(["workers-ai", "none"]).default("none"),
  RERANKER_MODEL: z.string().min(1).default("@cf/baai/bge-reranker-base"),
  LLM_PROVIDER: z.enum(["workers-ai", "rules"]).default("rules"),
  LLM_MODEL: z.string().min(1).default("@cf/meta/llama-3.1-8b-instruct"),
  MAX_RESULTS: intFrom(5, 1, 50),
  PROGRESSIVE_INJECTION: onOff.default("on"),
  PROGRESSIVE_RESET_SECONDS: intFrom(300, 0, 86_400),
  SOFT_DELETE_RETENTION_DAYS: intFrom(30, 0, 3650),
  CONFIDENCE_FLOOR: z.coerce.number().min(0).max(1).default(0.6),
  LONG_CONTENT_CHARS: intFrom(500, 50, 8000),
  IMPORTANCE_HALF_LIFE_DAYS: intFrom(30, 1, 3650),
  RETENTION_RULES: z.string().default(""),
  TOOL_PREFIX: z.string().regex(/^[A-Za-z0-9_-]*$/, "letters, digits, _ and - only").default(""),
  SERVER_NAME: z.string().min(1).default("hippocampus"),
  LOCALE: z.enum(["en", "zh"]).default("en"),
});

export type Config = z.infer<typeof configSchema>;

const cache = new WeakMap<object, Config>();

export function loadConfig(env: object): Config {
  const hit = cache.get(env);
  if (hit) return hit;
  const vars = Object.fromEntries(
    Object.entries(env).filter(([, v]) => typeof v === "string" && v !== ""),
  );
  const parsed = configSchema.safeParse(vars);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid config ${issue.path.join(".")}: ${issue.message}`);
  }
  cache.set(env, parsed.data);
  return parsed.data;
}
