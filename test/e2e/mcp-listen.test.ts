import { Client as ClientV2, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { observedFetch, trackedConnect } from "../helpers/mcp-client";

/**
 * A 2026-era `subscriptions/listen` answer is a stream that stays open: Server-Timing must not wait
 * for its end (http/server-timing.ts), or the client never sees the acknowledgement.
 */
const connectMcp = trackedConnect();

describe("subscriptions/listen on POST /mcp (2026 era)", () => {
  it("acknowledges at once and keeps the stream open, with Server-Timing on the response", async () => {
    const { key } = await createKey({ user: uniqueUser("listen") });
    const timings: (string | null)[] = [];
    const fetch = observedFetch({ authorization: `Bearer ${key}` }, (response) =>
      timings.push(response.headers.get("server-timing")),
    );
    const client = connectMcp.track(
      new ClientV2({ name: "listener", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } }),
    );
    await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch }));
    const subscription = await client.listen({ toolsListChanged: true }, { timeout: 5_000 });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    const state = await Promise.race([subscription.closed, new Promise((r) => setTimeout(() => r("open"), 200))]);
    expect(state).toBe("open");
    expect(timings.every((t) => t?.includes("total;dur="))).toBe(true);
    await subscription.close();
    expect(await subscription.closed).toBe("local");
  });
});
