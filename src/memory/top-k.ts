/**
 * @module memory/top-k
 * Partial selection of the k best scores without sorting the whole array (recall's hot path).
 */
export function topK(scores: Float32Array | number[], k: number): { index: number; score: number }[] {
  const best: { index: number; score: number }[] = [];
  if (k <= 0) return best;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i];
    if (best.length === k && score <= best[k - 1].score) continue;
    let pos = best.length < k ? best.length : k - 1;
    if (best.length < k) best.push({ index: i, score });
    while (pos > 0 && best[pos - 1].score < score) {
      best[pos] = best[pos - 1];
      pos--;
    }
    best[pos] = { index: i, score };
  }
  return best;
}
