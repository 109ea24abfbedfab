import type { RunOptions } from '../../engine/runtime.js';
import type { LoraAdapter } from '../../lora/adapter.js';
import type { TensorMap } from '../../model/tensor.js';
import type { DpoLearner } from './learner.js';
import type { DpoPair, ScoredPair } from './pairs.js';
import { describeMiss, readReferenceCache, referenceCacheKey, writeReferenceCache } from './reference-cache.js';

export interface CachedScoringOptions extends RunOptions {
  /** The cache file (REFERENCE_CACHE_FILE in the run folder). */
  file: string;
  config: unknown;
  weights: TensorMap;
  onProgress?: (pairsScored: number, pairs: number) => void;
  log: (line: string) => void;
}

/**
 * The reference log-probs of every pair: read from the run folder's cache when it was made for
 * the same model weights, reference and encoded pairs, otherwise scored (with progress) and cached,
 * so a second run or a resume into the same folder skips the scoring pass.
 */
export async function scorePairsCached(
  learner: DpoLearner,
  pairs: readonly DpoPair[],
  reference: LoraAdapter | null,
  options: CachedScoringOptions,
): Promise<ScoredPair[]> {
  const { file, config, weights, onProgress, log, ...run } = options;
  const key = referenceCacheKey({ config, weights, reference, pairs });
  const cached = await readReferenceCache(file, key, pairs);
  if (Array.isArray(cached)) {
    log(`reference log-probs of ${pairs.length} pairs read from ${file}; 0 pairs scored`);
    return cached;
  }
  log(`reference log-probs: ${describeMiss(cached)}`);
  const scored = await learner.scorePairs(pairs, reference, run, onProgress);
  await writeReferenceCache(file, key, scored);
  log(`reference log-probs of ${pairs.length} pairs cached in ${file}`);
  return scored;
}
