/**
 * @module memory/top-k
 * Partial selection of the k best scores without sorting the whole array (recall's hot path: the
 * local vector index calls it over every vector of the store). Equal scores keep their index order.
 */
export function topK(scores: Float32Array | number[], k: number): { index: number; score: number }[] {
  const best: { index: number; score: number }[] = [];
  if (k <= 0) return best;
  // The k-th best score once `best` is full: most scores fall at or below it and are passed over
  // with one comparison of locals (no property reads per score).
  let full = false;
  let floor = 0;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i];
    if (full && score <= floor) continue;
    let pos = best.length < k ? best.length : k - 1;
    if (best.length < k) best.push({ index: i, score });
    while (pos > 0 && best[pos - 1].score < score) {
      best[pos] = best[pos - 1];
      pos--;
    }
    best[pos] = { index: i, score };
    if (best.length === k) {
      full = true;
      floor = best[k - 1].score;
    }
  }
  return best;
}
