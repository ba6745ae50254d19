import { describe, expect, it } from "vitest";
import { LOCAL_V8_FLAGS, localRuntimeEnv } from "../../scripts/lib/local-runtime";

describe("localRuntimeEnv", () => {
  it("adds the local runtime's V8 flags and keeps everything else", () => {
    const env = localRuntimeEnv({ PATH: "/bin", CI: "1" });
    expect(env).toEqual({ PATH: "/bin", CI: "1", MINIFLARE_WORKERD_V8_FLAGS: LOCAL_V8_FLAGS });
    expect(LOCAL_V8_FLAGS).toBe("--max-semi-space-size=2");
  });

  it("leaves a value the caller set, including an empty one (V8's defaults)", () => {
    expect(localRuntimeEnv({ MINIFLARE_WORKERD_V8_FLAGS: "--max-semi-space-size=8" }).MINIFLARE_WORKERD_V8_FLAGS).toBe(
      "--max-semi-space-size=8",
    );
    expect(localRuntimeEnv({ MINIFLARE_WORKERD_V8_FLAGS: "" }).MINIFLARE_WORKERD_V8_FLAGS).toBe("");
  });
});
