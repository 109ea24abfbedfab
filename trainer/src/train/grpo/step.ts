import type { RunOptions } from '../../engine/runtime.js';
import type { LoraAdapter } from '../../lora/adapter.js';
import { LogprobScorer } from '../logprob-scorer.js';
import type { StepResult, TrainerOptions } from '../trainer.js';
import { LoraTrainer } from '../trainer.js';
import { computeAdvantages } from './advantages.js';
import type { GrpoConfig, GrpoOptions } from './config.js';
import { needsReference, resolveGrpoConfig } from './config.js';
import { grpoLoss } from './loss.js';
import { completionMetrics, samplingMetrics } from './metrics.js';
import type { GrpoSample } from './samples.js';
import { alignToSequence, grpoSequence, trainedMask, validateSample } from './samples.js';

export interface GrpoLearnerOptions extends Omit<TrainerOptions, 'loss'> {
  grpo?: GrpoOptions;
}

/**
 * A LoRA trainer built with the GRPO loss of one config, and (created on first use) a
 * forward-only scorer for log-probs under any adapter or none.
 */
export class GrpoLearner {
  private scorer: Promise<LogprobScorer> | null = null;

  private constructor(
    readonly trainer: LoraTrainer,
    readonly config: GrpoConfig,
    private readonly options: GrpoLearnerOptions,
  ) {}

  /** The temperature log-probs are scored at (logits / T); 1 when none was set. */
  get temperature(): number {
    return this.options.temperature ?? 1;
  }

  /** The model it trains on, for scorers of its own (e.g. a publishing probe at temperature 1). */
  get model(): Pick<GrpoLearnerOptions, 'config' | 'weights' | 'runtime'> {
    const { config, weights, runtime } = this.options;
    return { config, weights, ...(runtime ? { runtime } : {}) };
  }

  static async create(options: GrpoLearnerOptions): Promise<GrpoLearner> {
    const config = resolveGrpoConfig(options.grpo);
    return new GrpoLearner(await LoraTrainer.create({ ...options, loss: grpoLoss(config) }), config, options);
  }

  /**
   * Each sample's log-probs, aligned with its completion ids (0 on tokens not trained): under the
   * policy being trained by default (its adapter and trained weights) — lp_old, when taken before
   * an update — or, with null, the model before training, without adapter (the KL reference).
   * An adapter given scores that adapter on the weights being trained.
   */
  async logprobs(
    samples: readonly GrpoSample[],
    adapter: LoraAdapter | null | 'current' = 'current',
    options: RunOptions = {},
  ): Promise<Float32Array[]> {
    const { config: model, weights, temperature, microBatchSize, runtime } = this.options;
    const trained = this.trainer.trainedWeights;
    this.scorer ??= LogprobScorer.create({
      config: model,
      weights,
      lora: this.trainer.trainsAdapter ? this.trainer.adapter.config : undefined,
      trainable: [...trained.keys()],
      ...(temperature ? { temperature } : {}),
      ...(microBatchSize ? { microBatchSize } : {}),
      ...(runtime ? { runtime } : {}),
    });
    const scorer = await this.scorer;
    const sequences = samples.map((s) => ({
      tokens: [...s.promptIds, ...s.completionIds],
      mask: [...s.promptIds.map(() => 0), ...trainedMask(s, this.config)],
    }));
    const current = adapter === 'current';
    const scored = await scorer.score(
      sequences,
      current ? (this.trainer.trainsAdapter ? this.trainer.adapter : null) : adapter,
      options,
      adapter === null ? weights : trained,
    );
    return scored.map((lp, i) => lp.subarray(samples[i]!.promptIds.length));
  }

  async release(): Promise<void> {
    await this.trainer.release();
    if (this.scorer) await (await this.scorer).release();
  }
}

export interface GrpoStepResult {
  /** TRL-named metrics (see METRIC_SOURCES); the loss and graph metrics are means over the iterations. */
  metrics: Record<string, number>;
  /** The advantage each sample was trained with. */
  advantages: number[];
  /** One optimizer step per iteration. */
  updates: StepResult[];
  /** Wall time of the reference pass (0 without KL) and of the updates. */
  timings: { reference_ms: number; update_ms: number };
}

/**
 * One generation batch: advantages from the groups' rewards, the reference pass when β > 0, then
 * `numIterations` optimizer steps (each micro-batched, clipped, AdamW). The first step's pass
 * gives lp_old for the replays and the sampler-correction metrics.
 */
export async function grpoStep(
  learner: GrpoLearner,
  samples: readonly GrpoSample[],
  options: RunOptions = {},
): Promise<GrpoStepResult> {
  const { config } = learner;
  if (samples.length === 0) throw new RangeError('GRPO step: the batch is empty');
  samples.forEach((s, i) => validateSample(s, i, config));
  // Advantages set by the caller were computed once, over episodes (with their reward metrics).
  const rewards = allOrNone(samples, 'advantage') ? null : computeAdvantages(samples, config.scaleRewards);
  const advantages = rewards?.advantages ?? samples.map((s) => s.advantage!);
  const masks = samples.map((s) => trainedMask(s, config));
  const started = performance.now();
  let ref: number[][] | null = null;
  if (needsReference(config)) {
    const given = allOrNone(samples, 'refLogprobs')
      ? samples.map((s) => s.refLogprobs!)
      : await learner.logprobs(samples, null, options);
    ref = samples.map((s, i) => alignToSequence(s, masks[i]!, given[i]));
  }
  const referenceDone = performance.now();
  let old = allOrNone(samples, 'oldLogprobs')
    ? samples.map((s, i) => alignToSequence(s, masks[i]!, s.oldLogprobs))
    : null;
  const updates: StepResult[] = [];
  for (let iteration = 0; iteration < config.numIterations; iteration++) {
    const rows = samples.map((s, i) =>
      grpoSequence(s, config, {
        advantage: advantages[i]!,
        oldLogprobs: old?.[i] ?? null,
        refLogprobs: ref?.[i] ?? null,
      }),
    );
    const result = await learner.trainer.trainStep(rows, options);
    updates.push(result);
    // The pass before the first update scored the trained tokens (0 elsewhere): exactly lp_old.
    old ??= result.logprobs.map((lp) => Array.from(lp));
  }
  const metrics: Record<string, number> = { ...rewards?.metrics, ...completionMetrics(samples) };
  if (config.samplerCorrection) {
    const oldLogprobs = samples.map((s, i) => old![i]!.slice(s.promptIds.length));
    Object.assign(metrics, samplingMetrics(samples, { masks, oldLogprobs }, config.samplerCorrection));
  }
  const mean = (pick: (u: StepResult) => number) => updates.reduce((a, u) => a + pick(u), 0) / updates.length;
  for (const name of Object.keys(updates[0]!.metrics)) metrics[name] = mean((u) => u.metrics[name]!);
  Object.assign(metrics, {
    loss: mean((u) => u.loss),
    grad_norm: mean((u) => u.gradNorm),
    learning_rate: updates.at(-1)!.lr,
  });
  return {
    metrics,
    advantages,
    updates,
    timings: { reference_ms: referenceDone - started, update_ms: performance.now() - referenceDone },
  };
}

/** Whether every sample sets the field; some but not all is refused (the batch would mix two sources). */
function allOrNone(samples: readonly GrpoSample[], field: 'advantage' | 'oldLogprobs' | 'refLogprobs'): boolean {
  const set = samples.filter((s) => s[field] !== undefined).length;
  if (set !== 0 && set !== samples.length)
    throw new RangeError(`GRPO step: ${field} is set on ${set} of ${samples.length} samples; set it on all or none`);
  return set === samples.length;
}
