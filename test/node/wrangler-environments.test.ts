/**
 * wrangler.toml's environments, read with wrangler's own reader the way `wrangler dev`, the tests'
 * pool and `wrangler deploy` read them: none prints a warning (no var or binding of the top level is
 * "not inherited" by an environment), Workers AI is declared only where it is used, and Vectorize only
 * in production — so `npm run dev` and the tests start quietly and never hold the production index.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { unstable_readConfig } from "wrangler";

const ENVIRONMENTS = ["production", "dev", "dev-remote", "test"] as const;

/** Everything wrangler prints while reading the config for `env` (its logger writes to the console). */
function printedWhileReading(env: string): string[] {
  const printed: string[] = [];
  const keep = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  for (const method of ["warn", "log", "error", "info"] as const) vi.spyOn(console, method).mockImplementation(keep);
  unstable_readConfig({ config: "wrangler.toml", env });
  return printed;
}

afterEach(() => vi.restoreAllMocks());

describe("wrangler.toml environments", () => {
  for (const env of ENVIRONMENTS)
    it(`env ${env} is read without a warning`, () => {
      expect(printedWhileReading(env)).toEqual([]);
    });

  it("declares Workers AI only where a Workers AI provider runs, Vectorize only in production", () => {
    const read = (env: string) => unstable_readConfig({ config: "wrangler.toml", env }, { hideWarnings: true });
    expect(read("production").ai?.binding).toBe("AI");
    expect(read("production").vectorize.map((v: { binding: string }) => v.binding)).toEqual(["VECTORIZE"]);
    expect(read("dev-remote").ai).toEqual({ binding: "AI", remote: true });
    for (const env of ["dev", "test"]) {
      expect(read(env).ai, env).toBeUndefined();
      expect(read(env).vectorize, env).toEqual([]);
      expect(read(env).vars.EMBEDDING_PROVIDER, env).toBe("local");
    }
    expect(read("production").name).toBe("hippocampus");
  });
});
