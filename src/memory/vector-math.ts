/**
 * @module memory/vector-math
 * Small vector helpers for the domain: cosine similarity and L2 normalisation of embeddings.
 * Pure; the embedders and the vector-index adapters share these so scores mean the same everywhere.
 */

/**
 * Cosine similarity in one pass. Embeddings are normalised already, but dividing by the norms
 * costs nothing here and keeps the result right for vectors that are not (a stale model's rows).
 * 0 when either vector is all zeros (the hash embedder's answer to empty text), never NaN.
 */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`cosine: dimension mismatch ${a.length} vs ${b.length}`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  if (normA === 0 || normB === 0) return 0;
  const score = dot / Math.sqrt(normA * normB);
  // A component that is not finite (a model's 1e39 in a Float32Array) must not become a NaN score.
  return Number.isFinite(score) ? score : 0;
}

/**
 * A unit-length copy of `v`; a zero vector stays zero (no division by zero, no NaN), and so does a
 * vector with a component that is not finite or whose norm overflows (the providers refuse those
 * first: memory/model-gate.ts, providers/gate/vector-gate.ts).
 */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const out = new Float32Array(v.length);
  if (sum === 0 || !Number.isFinite(sum)) return out;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
  return out;
}
