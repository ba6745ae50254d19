/**
 * @module platform-limits/limited-env
 * The bindings one invocation sees, with the platform's limits on them: every D1 database a
 * LimitedD1, and every Durable Object call counted as a subrequest of the calling invocation. The
 * wrapped env is made once per original env (so config, caches and identities stay per isolate) and
 * reads the current invocation's budget at each call.
 */
import { currentInvocation } from "./invocation-budget";
import { LimitedD1 } from "./limited-d1";
import { enforced, type PlatformLimits } from "./platform-limits";

function isD1(value: unknown): value is D1Database {
  return typeof value === "object" && value !== null && "prepare" in value && "batch" in value && "exec" in value;
}

function isNamespace(value: unknown): value is DurableObjectNamespace {
  return typeof value === "object" && value !== null && "idFromName" in value && "get" in value;
}

/** Stub members that are not calls into the object. */
const NOT_CALLS = new Set<PropertyKey>(["then", "id", "name", "dup", Symbol.dispose]);

/** A stub whose every method call takes one subrequest of the caller's invocation. */
function countedStub<T extends object>(stub: T): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== "function" || NOT_CALLS.has(prop)) return value;
      return (...args: unknown[]) => {
        currentInvocation()?.take(
          "subrequests_per_invocation",
          1,
          `one more call to a Durable Object (${String(prop)})`,
        );
        // Reflect.apply: on an RPC method, `.apply` would itself be taken for a remote method.
        return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
      };
    },
  });
}

function countedNamespace(ns: DurableObjectNamespace): DurableObjectNamespace {
  return new Proxy(ns, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== "function") return value;
      const call = (...args: unknown[]) => Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
      if (prop !== "get" && prop !== "getByName") return call;
      return (...args: unknown[]) => countedStub(call(...args) as object);
    },
  });
}

const wrapped = new WeakMap<object, object>();

/** `env` with its D1 and Durable Object bindings under `limits`; `env` itself when limits are off. */
export function limitedEnv<E extends object>(env: E, limits: PlatformLimits): E {
  if (!enforced(limits)) return env;
  const hit = wrapped.get(env);
  if (hit) return hit as E;
  const out: Record<string, unknown> = { ...(env as Record<string, unknown>) };
  for (const [name, value] of Object.entries(env)) {
    if (isD1(value)) out[name] = new LimitedD1(value, limits);
    else if (isNamespace(value)) out[name] = countedNamespace(value);
  }
  wrapped.set(env, out);
  wrapped.set(out, out);
  return out as E;
}
