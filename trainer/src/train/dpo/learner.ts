import type { RunOptions } from '../../engine/runtime.js';
import type { LoraAdapter } from '../../lora/adapter.js';
import { batchTotals } from '../batch.js';
import { LogprobScorer } from '../logprob-scorer.js';
import type { TrainerOptions } from '../trainer.js';
import { LoraTrainer } from '../trainer.js';
import type { DpoConfig, DpoOptions } from './config.js';
import { resolveDpoConfig } from './config.js';
import { dpoLoss } from './loss.js';
import type { DpoPair, ScoredPair } from './pairs.js';
import { pairRows, validatePair } from './pairs.js';

export interface DpoLearnerOptions extends Omit<TrainerOptions, 'loss' | 'microBatchSize' | 'temperature'> {
  dpo?: DpoOptions;
  /** Pairs per forward/backward pass (both rows of a pair always share one); default: a whole step's. */
  microBatchPairs?: number;
}

export interface DpoStepResult {
  step: number;
  /** TRL's names: loss, rewards/*, logps/*, grad_norm, learning_rate. */
  metrics: Record<string, number>;
  /** Tokens the step ran through the model (both sides of every pair, no padding). */
  tokens: number;
}

/** A trainer (LoRA or full, see TrainerOptions.train) built with the DPO loss of one config. */
export class DpoLearner {
  private constructor(
    readonly trainer: LoraTrainer,
    readonly config: DpoConfig,
    private readonly options: DpoLearnerOptions,
  ) {}

  static async create(options: DpoLearnerOptions): Promise<DpoLearner> {
    const config = resolveDpoConfig(options.dpo);
    const { dpo: _dpo, microBatchPairs: _pairs, ...trainer } = options;
    return new DpoLearner(await LoraTrainer.create({ ...trainer, loss: dpoLoss(config) }), config, options);
  }

  /**
   * The reference log-probs of every pair, computed once before training: under `reference` (the
   * starting adapter, frozen) or, with null, the base model as it was before training. Its own session is released after.
   */
  async scorePairs(
    pairs: readonly DpoPair[],
    reference: LoraAdapter | null,
    options: RunOptions = {},
    onProgress?: (pairsScored: number, pairs: number) => void,
  ): Promise<ScoredPair[]> {
    pairs.forEach(validatePair);
    const { config, weights, runtime } = this.options;
    const micro = this.options.microBatchPairs;
    const scorer = await LogprobScorer.create({
      config,
      weights,
      // The options' weights are the starting model (a trainer trains copies of the base weights it trains).
      lora: reference?.config ?? this.options.lora,
      ...(micro ? { microBatchSize: 2 * micro } : {}),
      ...(runtime ? { runtime } : {}),
    });
    try {
      const scored = await scorer.score(
        pairs.flatMap((p) => [p.chosen, p.rejected]),
        reference,
        options,
        undefined,
        onProgress && ((rows, total) => onProgress(Math.floor(rows / 2), total / 2)),
      );
      return pairs.map((p, i) => ({ ...p, ref: { chosen: scored[2 * i]!, rejected: scored[2 * i + 1]! } }));
    } finally {
      await scorer.release();
    }
  }

  /** One optimizer step over a batch of pairs, micro-batched by whole pairs, clipped, AdamW. */
  async step(pairs: readonly ScoredPair[], options: RunOptions = {}): Promise<DpoStepResult> {
    if (pairs.length === 0) throw new RangeError('DPO step: the batch is empty');
    pairs.forEach(validatePair);
    const rows = pairRows(pairs);
    const totals = batchTotals(rows);
    const size = this.options.microBatchPairs ?? pairs.length;
    const metrics: Record<string, number> = {};
    let loss = 0;
    for (let start = 0; start < pairs.length; start += size) {
      const part = await this.trainer.accumulate(rows.slice(2 * start, 2 * (start + size)), totals, options);
      loss += part.loss;
      for (const [name, value] of Object.entries(part.metrics)) metrics[name] = (metrics[name] ?? 0) + value;
    }
    const { lr, gradNorm } = this.trainer.applyUpdate();
    return {
      step: this.trainer.step,
      metrics: { loss, ...metrics, grad_norm: gradNorm, learning_rate: lr },
      tokens: rows.reduce((n, r) => n + r.tokens.length - 1, 0),
    };
  }

  async release(): Promise<void> {
    await this.trainer.release();
  }
}
