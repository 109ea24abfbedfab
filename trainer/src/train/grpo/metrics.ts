import type { SamplerCorrection } from './config.js';
import { GRAPH_METRICS } from './loss.js';
import type { GrpoSample } from './samples.js';

/**
 * Where each logged metric (TRL's names) is computed. In the graph: masked means over tensors
 * the loss already has, summed over micro-batches. On the host: what needs rewards, lengths, or
 * a min / max across micro-batches.
 */
export const METRIC_SOURCES = {
  graph: GRAPH_METRICS,
  host: [
    'reward',
    'reward_std',
    'frac_reward_zero_std',
    'completions/mean_length',
    'completions/min_length',
    'completions/max_length',
    'completions/clipped_ratio',
    'completions/mean_terminated_length',
    'completions/min_terminated_length',
    'completions/max_terminated_length',
    'sampling/sampling_logp_difference/mean',
    'sampling/sampling_logp_difference/max',
    'sampling/importance_sampling_ratio/min',
    'sampling/importance_sampling_ratio/mean',
    'sampling/importance_sampling_ratio/max',
    'loss',
    'grad_norm',
    'learning_rate',
  ],
} as const;

/** Completion lengths (every completion token, env tokens included, as TRL counts them) and the fraction cut by the length limit. */
export function completionMetrics(samples: readonly GrpoSample[]): Record<string, number> {
  const lengths = samples.map((s) => s.completionIds.length);
  const terminated = samples.filter((s) => !s.truncated).map((s) => s.completionIds.length);
  const stats = (values: number[]) =>
    values.length
      ? { mean: values.reduce((a, b) => a + b, 0) / values.length, min: Math.min(...values), max: Math.max(...values) }
      : { mean: 0, min: 0, max: 0 };
  const [all, ended] = [stats(lengths), stats(terminated)];
  return {
    'completions/mean_length': all.mean,
    'completions/min_length': all.min,
    'completions/max_length': all.max,
    'completions/clipped_ratio': (samples.length - terminated.length) / samples.length,
    'completions/mean_terminated_length': ended.mean,
    'completions/min_terminated_length': ended.min,
    'completions/max_terminated_length': ended.max,
  };
}

/** The correction weight for one log-difference (a token's, or a sequence's sum), as the loss applies it. */
export function samplerWeight(logDiff: number, corr: SamplerCorrection): number {
  const w = Math.exp(logDiff);
  if (corr.mode === 'truncate') return Math.min(Math.max(w, corr.min), corr.max);
  return w >= corr.min && w <= corr.max ? w : 0;
}

export interface SamplingInput {
  /** The trained mask of each sample's completion tokens. */
  masks: readonly (readonly number[])[];
  /** lp_old per sample, aligned with its completion tokens. */
  oldLogprobs: readonly ArrayLike<number>[];
}

/**
 * How far the sampler's log-probs are from the trainer's (|lp_old − lp_sampler| over trained
 * tokens) and the correction weights that result: over trained tokens at token level, over
 * sequences at sequence level. Empty selections report 0.
 */
export function samplingMetrics(
  samples: readonly GrpoSample[],
  input: SamplingInput,
  corr: SamplerCorrection,
): Record<string, number> {
  const diffs: number[] = [];
  const weights: number[] = [];
  samples.forEach((s, i) => {
    let sum = 0;
    input.masks[i]!.forEach((m, t) => {
      if (!m) return;
      const d = input.oldLogprobs[i]![t]! - s.samplerLogprobs![t]!;
      diffs.push(Math.abs(d));
      sum += d;
      if (corr.level === 'token') weights.push(samplerWeight(d, corr));
    });
    if (corr.level === 'sequence') weights.push(samplerWeight(sum, corr));
  });
  const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0);
  const extreme = (v: number[], f: (...x: number[]) => number) => (v.length ? v.reduce((a, b) => f(a, b)) : 0);
  return {
    'sampling/sampling_logp_difference/mean': mean(diffs),
    'sampling/sampling_logp_difference/max': extreme(diffs, Math.max),
    'sampling/importance_sampling_ratio/min': extreme(weights, Math.min),
    'sampling/importance_sampling_ratio/mean': mean(weights),
    'sampling/importance_sampling_ratio/max': extreme(weights, Math.max),
  };
}
