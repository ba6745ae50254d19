/**
 * @module scripts/lib/turn-classifier
 * A learned yardstick for extraction on LoCoMo: a logistic regression over a turn's words (hashed
 * unigrams and bigrams), its length, its place in the session, its question marks, a shared image
 * and whether the turn before asked something, trained on the annotations themselves to tell the
 * turns that carry an observation from those that do not. Scored leave-one-group-out (a group is a
 * conversation), so every turn is scored by a model that never saw its conversation. Its
 * precision-recall curve says how well the words of a turn predict the annotators' choice: the
 * offline rules, which do not learn from the annotations, are compared with it. Pure; seeded.
 */

export interface LabelledTurn {
  /** Turns of one group are scored by a model trained on the other groups only. */
  group: string;
  text: string;
  /** The turn before in its session ("" for the first). */
  previous: string;
  /** 0 at a session's first turn, up to 1 at its last. */
  position: number;
  label: boolean;
}

const DIMENSIONS = 1 << 16;
const WORD = /[a-z']+|[?!.]/g;

function hash(feature: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < feature.length; i++) h = Math.imul(h ^ feature.charCodeAt(i), 0x01000193);
  return (h >>> 0) % DIMENSIONS;
}

/** The hashed features of a turn. */
export function turnFeatures(t: LabelledTurn): number[] {
  const words = t.text.toLowerCase().match(WORD) ?? [];
  const features = words.map((w) => `u:${w}`);
  for (let i = 0; i + 1 < words.length; i++) features.push(`b:${words[i]}_${words[i + 1]}`);
  features.push(
    `len:${Math.min(Math.floor(words.length / 5), 12)}`,
    `pos:${Math.floor(t.position * 5)}`,
    `q:${Math.min((t.text.match(/\?/g) ?? []).length, 3)}`,
    `img:${t.text.includes("[shared an image")}`,
    `prev-q:${t.previous.includes("?")}`,
  );
  return features.map(hash);
}

function seededOrder(n: number, seed: number): number[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

interface Model {
  weights: Float64Array;
  bias: number;
}

const score = (m: Model, features: number[]) => features.reduce((z, f) => z + m.weights[f], m.bias);

function train(features: number[][], labels: boolean[], rows: number[], seed: number): Model {
  const m: Model = { weights: new Float64Array(DIMENSIONS), bias: 0 };
  const [epochs, rate, l2] = [8, 0.1, 1e-5];
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const k of seededOrder(rows.length, seed + epoch)) {
      const i = rows[k];
      const p = 1 / (1 + Math.exp(-score(m, features[i])));
      const g = p - (labels[i] ? 1 : 0);
      for (const f of features[i]) m.weights[f] -= rate * (g + l2 * m.weights[f]);
      m.bias -= rate * g;
    }
  }
  return m;
}

/** Every turn's score from a model trained without its group. */
export function leaveOneGroupOut(turns: LabelledTurn[], seed = 1): number[] {
  const features = turns.map(turnFeatures);
  const labels = turns.map((t) => t.label);
  const scores = new Array<number>(turns.length).fill(0);
  for (const group of new Set(turns.map((t) => t.group))) {
    const rows = turns.flatMap((t, i) => (t.group === group ? [] : [i]));
    const model = train(features, labels, rows, seed);
    turns.forEach((t, i) => {
      if (t.group === group) scores[i] = score(model, features[i]);
    });
  }
  return scores;
}

export interface CurvePoint {
  recall: number;
  precision: number;
}

/** Precision at the first threshold reaching each recall, best score first. */
export function precisionAtRecall(scores: number[], labels: boolean[], recalls: number[]): CurvePoint[] {
  const order = scores.map((s, i) => [s, i] as const).sort((a, b) => b[0] - a[0]);
  const positives = labels.filter(Boolean).length;
  const out: CurvePoint[] = [];
  let found = 0;
  let next = 0;
  order.forEach(([, i], rank) => {
    if (labels[i]) found++;
    while (next < recalls.length && found / positives >= recalls[next]) {
      out.push({ recall: recalls[next], precision: found / (rank + 1) });
      next++;
    }
  });
  return out;
}

/** Area under the ROC curve (ties count half). */
export function rocAuc(scores: number[], labels: boolean[]): number {
  let pairs = 0;
  let wins = 0;
  const pos = scores.filter((_, i) => labels[i]);
  const neg = scores.filter((_, i) => !labels[i]).sort((a, b) => a - b);
  for (const s of pos) {
    let lo = 0;
    let hi = neg.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (neg[mid] < s) lo = mid + 1;
      else hi = mid;
    }
    let eq = lo;
    while (eq < neg.length && neg[eq] === s) eq++;
    wins += lo + (eq - lo) / 2;
    pairs += neg.length;
  }
  return pairs === 0 ? 0 : wins / pairs;
}
