import { describe, expect, it } from "vitest";
import { bannerTitle, exitHint } from "../../scripts/lib/dev-banner";

const local = {
  status: "ok",
  vector_index: { kind: "local", status: "ok" },
  embeddings: { provider: "local", model: "local-hash-v1", status: "ok" },
};

describe("npm run dev's banner", () => {
  it("says offline only when every provider is local", () => {
    expect(bannerTitle("dev", local)).toBe("  Hippocampus dev server (offline: env dev, local adapters)");
  });
  it("names an OpenAI-compatible embedder, and says when it does not answer", () => {
    const title = bannerTitle("dev", {
      status: "degraded",
      vector_index: { kind: "local", status: "ok" },
      embeddings: { provider: "openai-compatible", model: "bge-m3", status: "unavailable" },
    });
    expect(title).not.toContain("offline");
    expect(title).toContain("embeddings openai-compatible bge-m3 (unavailable)");
    expect(title).toContain("— degraded");
  });
  it("says when /health did not answer", () => {
    expect(bannerTitle("dev", null)).toContain("/health did not answer");
  });
});

describe("wrangler stopping before the server answered", () => {
  it("under --remote-ai tells to log in or drop the flag", () => {
    expect(exitHint("dev-remote", false)).toContain("run `npx wrangler login` first, or drop --remote-ai");
  });
  it("says nothing offline, or once the server had answered", () => {
    expect(exitHint("dev", false)).toBeNull();
    expect(exitHint("dev-remote", true)).toBeNull();
  });
});
