/**
 * The VectorIndex conformance suite (test/conformance/vector-index-suite.ts) over every adapter: the
 * local index in a Durable Object's SQLite, and Vectorize through a fake shaped like the binding
 * (writes visible only after flush, the metadata filter on the owner digest).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { ownerAddress } from "../../src/memory/owner-address";
import { LocalVectorIndex } from "../../src/storage/vectors/local-vector-index";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { describeVectorIndex, SUITE_DIMS } from "../conformance/vector-index-suite";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";

function freshStub() {
  return env.USER_MEMORY.get(
    env.USER_MEMORY.idFromName(ownerAddress({ accountId: "default", namespace: "user", userId: uniqueUser("conf") })),
  );
}

describeVectorIndex("LocalVectorIndex (Durable Object SQLite)", (body) =>
  runInDurableObject(freshStub(), (_instance, state) =>
    body(new LocalVectorIndex(state.storage.sql, SUITE_DIMS), async () => {}),
  ),
);

describeVectorIndex("VectorizeVectorIndex (fake binding)", async (body) => {
  const fake = new FakeVectorize();
  await body(new VectorizeVectorIndex(fake as unknown as VectorizeIndex), async () => fake.flush());
});
