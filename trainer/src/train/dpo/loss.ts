import { softplus } from '../../engine/composites/losses.js';
import type { Tensor } from '../../engine/graph.js';
import * as o from '../../engine/ops.js';
import { REF_LOGPROBS } from '../grpo/loss.js';
import type { LossContext, LossFn, LossOutput } from '../loss.js';
import type { DpoConfig } from './config.js';

/**
 * Per-sequence inputs: which pair a row belongs to (any number, equal for the two rows of a pair
 * and distinct between pairs of one micro-batch), and 1 on the chosen row, 0 on the rejected one.
 * The reference's log-probs come per token as GRPO's REF_LOGPROBS (0 where the mask is 0).
 */
export const PAIR_ID = 'dpo_pair';
export const IS_CHOSEN = 'dpo_chosen';

/** Metrics with TRL's names: means over the pairs of the whole optimizer batch. */
export const DPO_METRICS = [
  'rewards/chosen',
  'rewards/rejected',
  'rewards/accuracies',
  'rewards/margins',
  'logps/chosen',
  'logps/rejected',
] as const;

/**
 * DPO as a {@link LossFn}, from engine primitives. A pair is two rows of one micro-batch (in any
 * order): its completion log-prob sums π_c, π_r and the reference's ref_c, ref_r give
 *   z = (π_c − ref_c) − (π_r − ref_r)
 *   sigmoid: ℓ = (1 − ε)·softplus(−βz) + ε·softplus(βz)      (−log σ, cDPO's label smoothing ε)
 *   ipo:     ℓ = (z − 1/(2β))²  with length-averaged log-probs (TRL averages for IPO)
 * and the loss is Σ ℓ / (pairs in the whole batch). Each row finds its partner through an
 * equality matrix of pair ids, so the rows need not be adjacent and the trainer may reorder them.
 */
export function dpoLoss(config: DpoConfig): LossFn {
  return { name: `dpo-${config.lossType}`, build: (ctx) => buildDpoLoss(ctx, config) };
}

function buildDpoLoss(c: LossContext, cfg: DpoConfig): LossOutput {
  const perRow = (x: Tensor): Tensor => {
    const sum = o.reduceSum(o.mul(x, c.mask), [1], false);
    return cfg.lossType === 'ipo' ? o.div(sum, o.max(o.reduceSum(c.mask, [1], false), 1)) : sum;
  };
  const logps = perRow(c.logprobs);
  // Masked first, so a stray reference value where nothing is scored never reaches the loss.
  const logratio = o.sub(logps, perRow(c.tokenInput(REF_LOGPROBS)));
  const chosen = c.sequenceInput(IS_CHOSEN);
  const pair = c.sequenceInput(PAIR_ID);
  const sign = o.sub(o.mul(chosen, 2), 1);
  const samePair = o.cast(o.equal(o.unsqueeze(pair, [1]), o.unsqueeze(pair, [0])), c.dtype);
  // Row i: Σ_j [pair_j = pair_i]·sign_j·logratio_j = z of its pair (the same on both rows).
  const z = o.reduceSum(o.mul(samePair, o.unsqueeze(o.mul(sign, logratio), [0])), [1], false);
  let perPair: Tensor;
  if (cfg.lossType === 'ipo') perPair = o.pow(o.sub(z, 1 / (2 * cfg.beta)), 2);
  else {
    perPair = softplus(o.mul(z, -cfg.beta));
    if (cfg.labelSmoothing > 0)
      perPair = o.add(o.mul(perPair, 1 - cfg.labelSmoothing), o.mul(softplus(o.mul(z, cfg.beta)), cfg.labelSmoothing));
  }
  const pairs = o.div(c.totalSequences(), 2);
  // Each pair counted once, on its chosen row; the rejected row still gets its gradient through z.
  const overPairs = (perRowValue: Tensor, rows: Tensor = chosen) =>
    o.div(o.reduceSum(o.mul(perRowValue, rows), [], false), pairs);
  const rejected = o.sub(1, chosen);
  const reward = o.stopGradient(o.mul(logratio, cfg.beta));
  const margin = o.stopGradient(o.mul(z, cfg.beta));
  const metrics: Record<(typeof DPO_METRICS)[number], Tensor> = {
    'rewards/chosen': overPairs(reward),
    'rewards/rejected': overPairs(reward, rejected),
    'rewards/accuracies': overPairs(o.cast(o.greater(margin, 0), c.dtype)),
    'rewards/margins': overPairs(margin),
    'logps/chosen': overPairs(o.stopGradient(logps)),
    'logps/rejected': overPairs(o.stopGradient(logps), rejected),
  };
  return { loss: overPairs(perPair), metrics };
}
