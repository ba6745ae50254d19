/**
 * @module scripts/lib/bench-target
 * Where a benchmark runs: a fresh offline server it starts itself (bench-server.ts), or, with
 * `--url <server> --key <app key>`, a server already running, local or deployed. Against a running
 * server nothing is started or removed: the run's users get a tag of their own
 * (`bench-<run>-<sample>`, bench-users.ts) so they never meet an earlier run's memories, and the
 * memories stay there afterwards under those users. The key must be app-scoped (it acts for each
 * benchmark user, as `/v1/import?user=` and `user_id` require).
 */
import { connect, type Server } from "./bench-run.ts";
import { say, withServer } from "./bench-server.ts";
import { setBenchRun } from "./bench-users.ts";
import { ScriptError } from "./wrangler-d1.ts";

export interface BenchTarget {
  /** A running server's base URL; absent: start a fresh local one. */
  url?: string;
  key?: string;
  /** The tag of this run's users on a running server. */
  tag?: string;
  keep: boolean;
  vars: Record<string, string>;
}

/** `--var NAME=VALUE …` as the config vars a fresh server starts with. */
export function parseVars(values: string[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (values ?? []).map((v) => {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(v);
      if (!m) throw new ScriptError(`--var takes NAME=VALUE (an upper-case config name), got ${JSON.stringify(v)}`);
      return [m[1], m[2]];
    }),
  );
}

/** Checks --url/--key against the options that only a server of our own can honour. */
export function benchTarget(values: {
  url?: string;
  key?: string;
  keep?: boolean;
  vars: Record<string, string>;
}): BenchTarget {
  const target = {
    url: values.url,
    key: values.key ?? process.env.BENCH_KEY,
    keep: values.keep ?? false,
    vars: values.vars,
  };
  if (!target.url) {
    if (values.key) throw new ScriptError("--key goes with --url (the running server's app key)");
    return target;
  }
  let parsed: URL;
  try {
    parsed = new URL(target.url);
  } catch {
    throw new ScriptError(`--url must be the server's base URL (https://…), got ${JSON.stringify(target.url)}`);
  }
  if (!/^https?:$/.test(parsed.protocol)) throw new ScriptError("--url must be an http or https URL");
  if (!target.key)
    throw new ScriptError("--url needs --key <app key> (or BENCH_KEY): an app-scoped key of that server");
  if (Object.keys(values.vars).length > 0)
    throw new ScriptError("--var sets the vars of a server the benchmark starts; a running server keeps its own");
  if (values.keep)
    throw new ScriptError("--keep keeps a server the benchmark starts; a running server is never removed");
  const tag = Date.now().toString(36);
  setBenchRun(tag);
  return { ...target, tag, url: parsed.origin + parsed.pathname.replace(/\/+$/, "") };
}

/** Runs `work` against the target: a running server (users tagged with this run) or a fresh local one. */
export async function withTarget<T>(
  target: BenchTarget,
  work: (s: Server, rss: () => number[]) => Promise<T>,
  keyName = "bench",
): Promise<T> {
  if (!target.url) return withServer(target.keep, work, keyName, target.vars);
  say(`running server ${target.url}; this run's users are bench-${target.tag}-…`);
  const s = await connect(target.url, target.key!);
  try {
    return await work(s, () => []);
  } finally {
    await s.client.close().catch(() => undefined);
  }
}
