/**
 * The memory router's Workers AI upstream (ROUTER_UPSTREAM=workers-ai) against a fake AI binding
 * typed by the installed workers-types: answers in OpenAI's shape, streamed or not, the models it
 * lists, an unknown model refused, a binding that throws answered 502 without its text.
 */
import { describe, expect, it } from "vitest";
import { WorkersAiUpstream } from "../../src/router/workers-ai-upstream";
import { completion, FakeChatAi } from "../helpers/fake-ai";

const signal = new AbortController().signal;
const messages = [{ role: "user", content: "Which tea do I drink?" }];

describe("Workers AI as the router's upstream", () => {
  it("runs the named model with the request's fields and answers its completion as OpenAI JSON", async () => {
    const ai = new FakeChatAi(() => completion({ content: "Oolong." }));
    const res = await new WorkersAiUpstream(ai).chat(
      { model: "@cf/zai-org/glm-4.7-flash", messages, temperature: 0.2, user: "alice", stream_options: {} },
      signal,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; choices: { message: { content: string } }[] };
    expect(body.object).toBe("chat.completion");
    expect(body.choices[0].message.content).toBe("Oolong.");
    expect(ai.calls[0].model).toBe("@cf/zai-org/glm-4.7-flash");
    expect(ai.calls[0].inputs).toEqual({ messages, temperature: 0.2, stream: false });
  });

  it("answers a stream request as one chat.completion.chunk and [DONE]", async () => {
    const ai = new FakeChatAi(() => completion({ content: "Oolong." }));
    const res = await new WorkersAiUpstream(ai).chat(
      { model: "@cf/zai-org/glm-4.7-flash", messages, stream: true },
      signal,
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const events = (await res.text()).split("\n\n").filter(Boolean);
    expect(events).toHaveLength(2);
    const chunk = JSON.parse(events[0].slice("data: ".length)) as {
      object: string;
      choices: { delta: { content: string }; finish_reason: string }[];
    };
    expect(chunk.object).toBe("chat.completion.chunk");
    expect(chunk.choices[0]).toMatchObject({ delta: { content: "Oolong." }, finish_reason: "stop" });
    expect(events[1]).toBe("data: [DONE]");
  });

  it("refuses a model it does not support (404), and answers 502 without the binding's text when it throws", async () => {
    const ai = new FakeChatAi(() => {
      throw new Error("AiError: 3030: echoed secret prompt");
    });
    const upstream = new WorkersAiUpstream(ai);
    const unknown = await upstream.chat({ model: "gpt-4o", messages }, signal);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { param: string } }).error.param).toBe("model");
    const failed = await upstream.chat({ model: "@cf/zai-org/glm-4.7-flash", messages }, signal);
    expect(failed.status).toBe(502);
    expect(await failed.text()).not.toContain("secret");
    const models = (await (await upstream.models()).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toContain("@cf/zai-org/glm-4.7-flash");
  });

  it("gives up when the router's signal aborts, even if the binding never answers", async () => {
    const ai = new FakeChatAi(() => new Promise(() => undefined));
    const controller = new AbortController();
    const pending = new WorkersAiUpstream(ai).chat({ model: "@cf/zai-org/glm-4.7-flash", messages }, controller.signal);
    controller.abort();
    await expect(pending).rejects.toThrow("aborted");
  });
});
