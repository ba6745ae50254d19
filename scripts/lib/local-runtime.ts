/**
 * @module scripts/lib/local-runtime
 * The environment of the local runtime (workerd under `wrangler dev --local`) that `npm run dev`
 * and every benchmark server start: V8 flags for its isolates, passed through miniflare's
 * MINIFLARE_WORKERD_V8_FLAGS. V8 grows each isolate's young generation up to 16 MB a semi-space
 * on a busy isolate; the local runtime runs ~18 of them (the Worker, the D1 simulator, the dev
 * platform's own), and after a 100k import that young space held ~100 MB of workerd's RSS that no
 * memory of ours was in (docs/benchmarks.md, "V8's young generation in the local runtime"). Capped
 * at 2 MB, interleaved rounds show no CPU cost per recall at 1k or 100k. Production is not
 * affected: Cloudflare's runtime sets its own V8 configuration. A value already in the
 * environment wins; an empty one runs V8's defaults.
 */

/** V8 flags for the local runtime's isolates unless MINIFLARE_WORKERD_V8_FLAGS says otherwise. */
export const LOCAL_V8_FLAGS = "--max-semi-space-size=2";

/** `env` with the local runtime's V8 flags added, unless it sets MINIFLARE_WORKERD_V8_FLAGS itself. */
export function localRuntimeEnv<E extends Record<string, string | undefined>>(env: E): E {
  if (env.MINIFLARE_WORKERD_V8_FLAGS !== undefined) return env;
  return { ...env, MINIFLARE_WORKERD_V8_FLAGS: LOCAL_V8_FLAGS };
}
