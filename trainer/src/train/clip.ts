/** √Σ g² over every gradient tensor together (accumulated in float64). */
export function globalNorm(grads: Iterable<Float32Array>): number {
  let sum = 0;
  for (const g of grads) for (let i = 0; i < g.length; i++) sum += g[i]! * g[i]!;
  return Math.sqrt(sum);
}

/**
 * Scales all gradients by maxNorm / norm when their global norm exceeds maxNorm (PyTorch's
 * clip_grad_norm_). Returns the norm before clipping, the figure worth logging.
 */
export function clipGlobalNorm(grads: Iterable<Float32Array>, maxNorm: number): number {
  const list = [...grads];
  const norm = globalNorm(list);
  if (Number.isFinite(maxNorm) && norm > maxNorm) {
    const scale = maxNorm / (norm + 1e-6);
    for (const g of list) for (let i = 0; i < g.length; i++) g[i]! *= scale;
  }
  return norm;
}
