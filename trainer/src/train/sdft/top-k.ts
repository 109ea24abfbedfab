/**
 * The teacher's k likeliest tokens per row of log-probs [rows, vocab], and their log-probs
 * renormalised over those k (log pᵢ − log Σ_top-k p): the support a top-k distillation KL is
 * taken on (the student is renormalised there too, see distillationKl). Ties keep the lower id.
 */
export function teacherTopK(
  logprobs: Float32Array,
  vocab: number,
  k: number,
): { ids: BigInt64Array; logprobs: Float32Array } {
  if (!Number.isInteger(k) || k < 1 || k > vocab)
    throw new RangeError(`top-k must be an integer in [1, ${vocab}], got ${k}`);
  const rows = logprobs.length / vocab;
  const ids = new BigInt64Array(rows * k);
  const out = new Float32Array(rows * k);
  const order = [...Array(vocab).keys()];
  for (let r = 0; r < rows; r++) {
    const row = logprobs.subarray(r * vocab, (r + 1) * vocab);
    const top = order
      .slice()
      .sort((a, b) => row[b]! - row[a]! || a - b)
      .slice(0, k);
    const max = row[top[0]!]!;
    let sum = 0;
    for (const id of top) sum += Math.exp(row[id]! - max);
    const norm = max + Math.log(sum);
    top.forEach((id, j) => {
      ids[r * k + j] = BigInt(id);
      out[r * k + j] = row[id]! - norm;
    });
  }
  return { ids, logprobs: out };
}
