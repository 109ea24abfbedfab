import type { Tensor } from '../../engine/graph.js';
import { dimOf } from '../../engine/helpers.js';
import * as o from '../../engine/ops.js';
import type { LossContext, LossFn, LossOutput } from '../loss.js';
import { needsReference, type GrpoConfig, type SamplerCorrection } from './config.js';

/** Per-sequence inputs: the advantage, and 1 where old log-probs are the current ones (first pass over a batch). */
export const ADVANTAGE = 'advantage';
export const OLD_IS_CURRENT = 'old_is_current';
/** Per-token inputs, aligned with the tokens like the mask (0 where the mask is 0). */
export const OLD_LOGPROBS = 'old_logprobs';
/** With advantage gigpo, the advantage per token (each turn's own) replaces the per-sequence ADVANTAGE. */
export const TOKEN_ADVANTAGE = 'token_advantage';
export const SAMPLER_LOGPROBS = 'sampler_logprobs';
export const REF_LOGPROBS = 'ref_logprobs';

/** Loss metrics computed in the graph (masked means over the whole optimizer batch). */
export const GRAPH_METRICS = [
  'kl',
  'entropy',
  'clip_ratio/low_mean',
  'clip_ratio/high_mean',
  'clip_ratio/region_mean',
] as const;

/**
 * GRPO's clipped, importance-weighted surrogate as a {@link LossFn}, from engine primitives:
 *   r = exp(lp − lp_old) per token, or exp(masked mean of lp − lp_old) per sequence (GSPO);
 *   ℓ = −min(min(r, δ)·A, clip(r, 1−ε_low, 1+ε_high)·A) · w_sampler + β·k3(ref, lp);
 * then Σ ℓ·m normalised per `lossType`. lp_old is the current log-probs held constant when a
 * sequence's OLD_IS_CURRENT is 1 (the first pass over a batch, before any update), else the
 * OLD_LOGPROBS input: so `numIterations` replays need no extra forward pass. A is one value per
 * sequence, or with advantage gigpo one per token (TOKEN_ADVANTAGE: each turn's own).
 */
export function grpoLoss(config: GrpoConfig): LossFn {
  return { name: `grpo-${config.lossType}`, build: (ctx) => buildGrpoLoss(ctx, config) };
}

function buildGrpoLoss(c: LossContext, cfg: GrpoConfig): LossOutput {
  const { logprobs: lp, mask: m } = c;
  const advantage =
    cfg.advantage === 'gigpo' ? c.tokenInput(TOKEN_ADVANTAGE) : o.unsqueeze(c.sequenceInput(ADVANTAGE), [1]);
  const current = o.greater(o.unsqueeze(c.sequenceInput(OLD_IS_CURRENT), [1]), 0.5);
  const lpOld = o.where(current, o.stopGradient(lp), c.tokenInput(OLD_LOGPROBS));
  // Masked first: an unscored position's log-ratio is 0, never exp of a stray value times 0 (NaN).
  const logRatio = o.mul(o.sub(lp, lpOld), m);
  const ratio = o.exp(cfg.ratioLevel === 'token' ? logRatio : rowMean(logRatio, m));
  const capped = cfg.delta === null ? ratio : o.min(ratio, cfg.delta);
  const clipped = o.min(o.max(ratio, 1 - cfg.epsilonLow), 1 + cfg.epsilonHigh);
  let perToken = o.neg(o.min(o.mul(capped, advantage), o.mul(clipped, advantage)));
  if (cfg.samplerCorrection) perToken = o.mul(perToken, samplerWeight(c, lpOld, cfg.samplerCorrection));
  const metrics: Record<string, Tensor> = {};
  const tokenMean = (x: Tensor) => o.div(o.reduceSum(o.mul(x, m), [], false), c.totalTokens());
  // Sequence-level ratios are one per row: their clip fractions are over sequences (as TRL's).
  const ratioMean = (x: Tensor) =>
    cfg.ratioLevel === 'token' ? tokenMean(x) : o.div(o.reduceSum(x, [], false), c.totalSequences());
  if (needsReference(cfg)) {
    const d = o.mul(o.sub(c.tokenInput(REF_LOGPROBS), lp), m);
    const k3 = o.sub(o.sub(o.exp(d), d), 1);
    if (cfg.beta > 0) perToken = o.add(perToken, o.mul(k3, cfg.beta));
    metrics['kl'] = tokenMean(o.stopGradient(k3));
  }
  if (cfg.logEntropy) metrics['entropy'] = tokenMean(c.entropy());
  const low = o.and(o.less(capped, 1 - cfg.epsilonLow), o.less(advantage, 0));
  const high = o.and(o.greater(capped, 1 + cfg.epsilonHigh), o.greater(advantage, 0));
  const asFloat = (b: Tensor) => o.cast(b, c.dtype);
  metrics['clip_ratio/low_mean'] = ratioMean(asFloat(low));
  metrics['clip_ratio/high_mean'] = ratioMean(asFloat(high));
  metrics['clip_ratio/region_mean'] = ratioMean(asFloat(o.or(low, high)));
  return { loss: normalise(c, perToken, cfg), metrics };
}

/** Masked mean over each row, [batch, 1]; an all-masked row gives 0. */
function rowMean(x: Tensor, m: Tensor): Tensor {
  return o.div(o.reduceSum(o.mul(x, m), [1]), o.max(o.reduceSum(m, [1]), 1));
}

/** exp(lp_old − lp_sampler) per token or exp(Σ) per sequence, clamped or zeroed outside [min, max]. No gradient reaches lp. */
function samplerWeight(c: LossContext, lpOld: Tensor, corr: SamplerCorrection): Tensor {
  const diff = o.mul(o.sub(lpOld, c.tokenInput(SAMPLER_LOGPROBS)), c.mask);
  const w = o.exp(corr.level === 'token' ? diff : o.reduceSum(diff, [1]));
  if (corr.mode === 'truncate') return o.min(o.max(w, corr.min), corr.max);
  return o.where(o.and(o.greaterOrEqual(w, corr.min), o.lessOrEqual(w, corr.max)), w, 0);
}

/**
 * Σ ℓ·m over this micro-batch, scaled so that the sum over micro-batches is TRL's loss:
 *   dapo     Σ / (masked tokens in the whole batch)
 *   bnpo     Σ / (masked tokens in this micro-batch) × (its share of the batch's sequences)
 *   grpo     Σ over sequences of each one's token mean, / sequences in the batch
 *   dr_grpo  Σ / (sequences in the batch × maxCompletionLength)
 * bnpo's share equals TRL's 1/gradient_accumulation_steps when micro-batches are equal.
 */
function normalise(c: LossContext, perToken: Tensor, cfg: GrpoConfig): Tensor {
  const m = c.mask;
  const total = o.reduceSum(o.mul(perToken, m), [], false);
  switch (cfg.lossType) {
    case 'dapo':
      return o.div(total, c.totalTokens());
    case 'bnpo': {
      const rows = o.reduceSum(o.cast(dimOf(m, 0), c.dtype), [], false);
      return o.mul(o.div(total, o.max(o.reduceSum(m, [], false), 1)), o.div(rows, c.totalSequences()));
    }
    case 'grpo':
      return o.div(o.reduceSum(rowMean(perToken, m), [], false), c.totalSequences());
    case 'dr_grpo':
      return o.div(total, o.mul(c.totalSequences(), cfg.maxCompletionLength!));
  }
}
