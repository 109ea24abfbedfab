import type { HostTensor } from '../engine/host-tensor.js';
import type { RunOptions, RuntimeOptions } from '../engine/runtime.js';
import { Runtime } from '../engine/runtime.js';
import type { LoraAdapter } from '../lora/adapter.js';
import { initLoraAdapter } from '../lora/adapter.js';
import type { LoraConfig } from '../lora/config.js';
import type { ModelConfig } from '../model/config.js';
import { loraInputNames } from '../graph/graph.js';
import type { WeightMap } from '../model/weights.js';
import { formatShape, sameShape } from '../model/tensor.js';
import type { PolicyTensors } from './policy-tensors.js';
import type { TrainSpec } from './trainable.js';
import { LORA_ONLY, trainedWeightNames } from './trainable.js';
import type { AdamWOptions, AdamWState } from './adamw.js';
import { AdamW } from './adamw.js';
import type { BatchTotals, TrainSequence } from './batch.js';
import { batchTotals, collate, rowLogprobs, validateSequence } from './batch.js';
import { microBatches } from './micro-batches.js';
import { clipGlobalNorm } from './clip.js';
import type { LossFn } from './loss.js';
import { sftLoss } from './loss.js';
import type { ScheduleOptions } from './schedule.js';
import { learningRate } from './schedule.js';
import type { TrainGraph } from './train-graph.js';
import { buildTrainGraph, gradName, LOGPROBS, LOSS, metricName } from './train-graph.js';

export interface TrainerOptions {
  config: ModelConfig;
  weights: WeightMap;
  lora: LoraConfig;
  /** What to train (default: the LoRA adapter alone); without `lora` in it, `lora` and `adapter` are unused. */
  train?: TrainSpec;
  /** Starting adapter (its arrays are trained in place); default: PEFT init from `seed`. */
  adapter?: LoraAdapter;
  /**
   * Starting values of trained base weights (a resumed run's); default: `weights`, which stays the
   * model before training (a KL reference) either way.
   */
  trained?: WeightMap;
  seed?: number;
  loss?: LossFn;
  temperature?: number;
  optimizer?: Omit<AdamWOptions, 'lr'>;
  schedule: ScheduleOptions;
  /** Global-norm clip (default 1; Infinity disables). */
  maxGradNorm?: number;
  /** Sequences per forward/backward pass (default: as many as fit MICRO_BATCH_TOKENS); a step accumulates gradients over all of them. */
  microBatchSize?: number;
  runtime?: RuntimeOptions;
}

export interface AccumulateResult {
  loss: number;
  metrics: Record<string, number>;
  /** Per sequence, log p(token t) at index t where token t is trained (scored); 0 elsewhere. */
  logprobs: Float32Array[];
}

/** What a checkpoint needs beyond the adapter to take the next step exactly: the step count and AdamW's moments. */
export interface TrainerState {
  step: number;
  optimizer: AdamWState;
}

export interface StepResult extends AccumulateResult {
  step: number;
  lr: number;
  gradNorm: number;
  tokens: number;
  sequences: number;
  microBatches: number;
}

/**
 * Training on one session: the training graph is built once, frozen base weights live in it, and
 * every micro-batch feeds tokens, masks and the current trained tensors (the adapter, and the
 * base weights `train` names, which the trainer holds as its own copies). Gradients accumulate
 * over micro-batches (each normalised by the whole batch's totals), then clip, schedule and AdamW
 * (moments for every trained tensor).
 */
export class LoraTrainer {
  private readonly grads = new Map<string, Float32Array>();
  private readonly optimizer: AdamW;
  private steps = 0;
  private pending = 0;

  private constructor(
    private readonly options: TrainerOptions,
    private readonly graph: TrainGraph,
    private readonly runtime: Runtime,
    private readonly current: LoraAdapter | undefined,
    private readonly trained: WeightMap,
    private readonly params: Map<string, Float32Array>,
  ) {
    this.optimizer = new AdamW(options.optimizer);
    for (const [name, p] of params) this.grads.set(name, new Float32Array(p.length));
  }

  static async create(options: TrainerOptions): Promise<LoraTrainer> {
    const spec = options.train ?? LORA_ONLY;
    const adapter = spec.has('lora')
      ? (options.adapter ?? initLoraAdapter(options.config, options.lora, options.seed ?? 0))
      : undefined;
    const names = trainedWeightNames(options.config, spec);
    const graph = buildTrainGraph(options.config, options.weights, {
      lora: adapter?.config,
      trainable: names,
      loss: options.loss ?? sftLoss,
      ...(options.temperature ? { temperature: options.temperature } : {}),
    });
    const params = new Map<string, Float32Array>();
    for (const [path, m] of adapter?.modules ?? []) {
      params.set(loraInputNames(path).a, m.a.data);
      params.set(loraInputNames(path).b, m.b.data);
    }
    // Copies: the caller's weights stay the starting point (a reference model may share them).
    const trained: WeightMap = new Map();
    for (const name of names) {
      const w = options.trained?.get(name) ?? options.weights.get(name)!;
      const want = options.weights.get(name)!.shape;
      if (!sameShape(w.shape, want))
        throw new RangeError(`trained weight ${name} is ${formatShape(w.shape)}; the model's is ${formatShape(want)}`);
      trained.set(name, { shape: [...w.shape], data: w.data.slice() });
      params.set(name, trained.get(name)!.data);
    }
    const missing = graph.parameters.find((name) => !params.has(name));
    if (missing)
      throw new RangeError(
        `the adapter has no tensor for graph input '${missing}' (adapter targets must match the LoRA config)`,
      );
    return new LoraTrainer(
      options,
      graph,
      await Runtime.create(graph.graph, options.runtime),
      adapter,
      trained,
      params,
    );
  }

  get step(): number {
    return this.steps;
  }

  /** The adapter being trained (live: its arrays change with every step); refused when the run trains no adapter. */
  get adapter(): LoraAdapter {
    if (!this.current) throw new RangeError('this run trains no LoRA adapter (--train has no lora)');
    return this.current;
  }

  /** Whether an adapter is trained (`--train` includes lora). */
  get trainsAdapter(): boolean {
    return this.current !== undefined;
  }

  /** The trained base weights by name (live: their arrays change with every step); empty for LoRA alone. */
  get trainedWeights(): WeightMap {
    return this.trained;
  }

  /** The trained tensors as they stand (live arrays): what a version publishes and a checkpoint keeps. */
  get policy(): PolicyTensors {
    return {
      ...(this.current ? { adapter: this.current } : {}),
      ...(this.trained.size ? { weights: this.trained } : {}),
    };
  }

  /** The whole model as it stands: the base weights with the trained ones in their place (arrays live, not copied). */
  modelWeights(): WeightMap {
    return new Map([...this.options.weights].map(([name, w]) => [name, this.trained.get(name) ?? w]));
  }

  /** Adds this batch's gradients to the accumulator; `totals` are the whole optimizer batch's. */
  async accumulate(
    batch: readonly TrainSequence[],
    totals: BatchTotals = batchTotals(batch),
    options: RunOptions = {},
  ): Promise<AccumulateResult> {
    batch.forEach((s, i) => validateSequence(s, i, this.options.config.vocabSize));
    const result: AccumulateResult = { loss: 0, metrics: {}, logprobs: new Array(batch.length) };
    const paramFeeds = this.parameterFeeds();
    for (const rows of microBatches(batch, this.options.microBatchSize)) {
      options.signal?.throwIfAborted();
      const out = await this.runtime.run(
        {
          ...collate(
            rows.map((i) => batch[i]!),
            this.graph,
            totals,
          ),
          ...paramFeeds,
        },
        options,
      );
      result.loss += out[LOSS]!.data[0] as number;
      for (const name of this.graph.metrics)
        result.metrics[name] = (result.metrics[name] ?? 0) + (out[metricName(name)]!.data[0] as number);
      for (const [name, acc] of this.grads) {
        const g = out[gradName(name)]!.data as Float32Array;
        // The first micro-batch since an update overwrites, so clearing after the update is not needed.
        if (this.pending === 0) acc.set(g);
        else for (let i = 0; i < acc.length; i++) acc[i]! += g[i]!;
      }
      rows.forEach((row, k) => (result.logprobs[row] = rowLogprobs(out[LOGPROBS]!, k, batch[row]!.tokens.length)));
      this.pending++;
    }
    return result;
  }

  /** Clips the accumulated gradients, takes one AdamW step at the scheduled rate, and clears them. */
  applyUpdate(): { lr: number; gradNorm: number } {
    if (this.pending === 0) throw new RangeError('applyUpdate: no gradients accumulated since the last update');
    const gradNorm = clipGlobalNorm(this.grads.values(), this.options.maxGradNorm ?? 1);
    const lr = learningRate(this.options.schedule, this.steps);
    this.optimizer.update(this.params, this.grads, lr);
    this.steps++;
    this.pending = 0;
    return { lr, gradNorm };
  }

  /** One optimizer step over a batch, split into micro-batches. */
  async trainStep(batch: readonly TrainSequence[], options: RunOptions = {}): Promise<StepResult> {
    const totals = batchTotals(batch);
    const passes = microBatches(batch, this.options.microBatchSize).length;
    const result = await this.accumulate(batch, totals, options).catch((error: unknown) => {
      // A pass that failed leaves the earlier passes' gradients: dropped, so the next step starts clean.
      this.pending = 0;
      throw error;
    });
    const update = this.applyUpdate();
    return {
      ...result,
      ...update,
      step: this.steps,
      tokens: totals.tokens,
      sequences: totals.sequences,
      microBatches: passes,
    };
  }

  /** The optimizer's state between updates (refused while gradients are accumulated but not applied). */
  exportState(): TrainerState {
    if (this.pending > 0)
      throw new RangeError('exportState: gradients are accumulated but not applied; export between updates');
    return { step: this.steps, optimizer: this.optimizer.exportState() };
  }

  /** Continues from an exported state; the adapter comes from `TrainerOptions.adapter`, trained base weights from `TrainerOptions.trained`. */
  importState(state: TrainerState): void {
    if (!Number.isSafeInteger(state.step) || state.step < 0)
      throw new RangeError(`trainer state: step must be a non-negative integer, got ${state.step}`);
    this.optimizer.importState(state.optimizer, new Map([...this.params].map(([name, p]) => [name, p.length])));
    this.steps = state.step;
    this.pending = 0;
  }

  async release(): Promise<void> {
    await this.runtime.release();
  }

  private parameterFeeds(): Record<string, HostTensor> {
    const feeds: Record<string, HostTensor> = {};
    for (const [path, m] of this.current?.modules ?? []) {
      feeds[loraInputNames(path).a] = { dtype: 'float32', dims: m.a.shape, data: m.a.data };
      feeds[loraInputNames(path).b] = { dtype: 'float32', dims: m.b.shape, data: m.b.data };
    }
    for (const [name, w] of this.trained) feeds[name] = { dtype: 'float32', dims: w.shape, data: w.data };
    return feeds;
  }
}
