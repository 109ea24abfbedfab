import { gradients } from '../engine/autodiff.js';
import { tokenEntropy, tokenLogProbs } from '../engine/composites/losses.js';
import { Graph } from '../engine/graph.js';
import type { Tensor } from '../engine/graph.js';
import { reshapeLike, zerosLike } from '../engine/helpers.js';
import * as o from '../engine/ops.js';
import type { LoraConfig } from '../lora/config.js';
import type { ModelConfig } from '../model/config.js';
import { buildModelGraph, loraInputNames, type ModelGraph } from '../graph/graph.js';
import type { WeightMap } from '../model/weights.js';
import type { LossContext, LossFn } from './loss.js';

export const TARGET_IDS = 'target_ids';
export const LOSS_MASK = 'loss_mask';
export const SCORE_INDEX = 'score_index';
export const TOTAL_TOKENS = 'total_tokens';
export const TOTAL_SEQUENCES = 'total_sequences';
export const LOSS = 'loss';
export const LOGPROBS = 'logprobs';
export const gradName = (input: string): string => `grad:${input}`;
export const metricName = (metric: string): string => `metric:${metric}`;

export interface TrainGraphOptions {
  /** The adapter trained (absent: no adapter, only `trainable` base weights). */
  lora?: LoraConfig | undefined;
  /** Base weights trained too, by Hugging Face name (see trainedWeightNames): graph inputs with gradients. */
  trainable?: readonly string[];
  loss: LossFn;
  /** Logits are divided by this before the log-softmax (GRPO scores at the sampling temperature). */
  temperature?: number;
  dtype?: 'float32' | 'float64';
  /** false builds the loss alone (finite-difference checks evaluate it many times). */
  withGradients?: boolean;
  /** Score every position, not only trained ones (default false: the LM head runs where the mask is set). */
  scoreAll?: boolean;
}

export interface TrainGraph {
  graph: Graph;
  model: ModelGraph;
  /**
   * Trained input names: the adapter's in module order (`<path>.lora_A.weight`, `<path>.lora_B.weight`, …),
   * then the trained base weights' in checkpoint order.
   */
  parameters: string[];
  /** Inputs the loss declared: per-sequence and per-token extras by name, and the totals it uses. */
  sequenceInputs: string[];
  tokenInputs: string[];
  /** Per-scored-position inputs the loss declared (rowInput), with their widths. */
  rowInputs: RowInput[];
  totals: string[];
  metrics: string[];
  /** Extra outputs the loss named (LossOutput.outputs), read whole rather than summed. */
  outputs: string[];
  scoreAll: boolean;
}

export interface RowInput {
  name: string;
  width: number;
  dtype: 'float32' | 'float64' | 'int64';
}

/**
 * Forward + loss + gradients in one graph: per-token temperature-scaled log-probs of the
 * targets, a pluggable loss over them, and d loss / d (every adapter factor and trained base
 * weight). Both kinds are graph inputs differentiated the same way; frozen base weights are
 * initializers that get no gradient (autodiff prunes their branches).
 */
export function buildTrainGraph(config: ModelConfig, weights: WeightMap, options: TrainGraphOptions): TrainGraph {
  const dtype = options.dtype ?? 'float32';
  const graph = new Graph(`${config.architecture}-train-${options.loss.name}`);
  const trainable = options.trainable ?? [];
  const model = buildModelGraph(config, weights, {
    dtype,
    graph,
    trainable: new Set(trainable),
    ...(options.lora ? { lora: options.lora } : {}),
  });
  if (!options.lora && trainable.length === 0)
    throw new RangeError('buildTrainGraph: nothing to train (no LoRA config and no trainable weights)');
  const targets = graph.input(TARGET_IDS, 'int64', ['batch', 'seq']);
  const mask = graph.input(LOSS_MASK, dtype, ['batch', 'seq']);
  const declared = new Map<string, Tensor>();
  const sequenceInputs: string[] = [];
  const tokenInputs: string[] = [];
  const totals: string[] = [];
  const declare = (name: string, shape: (string | number)[], list: string[]): Tensor => {
    const known = declared.get(name);
    if (known) return known;
    const t = graph.input(name, dtype, shape);
    declared.set(name, t);
    list.push(name);
    return t;
  };
  const rowInputs: RowInput[] = [];
  const declareRows = (name: string, width: number, kind: 'float' | 'int64' = 'float'): Tensor => {
    const known = declared.get(name);
    if (known) return known;
    if (options.scoreAll) throw new RangeError(`buildTrainGraph: row input '${name}' needs scoreAll off`);
    const rowType = kind === 'int64' ? 'int64' : dtype;
    const t = graph.input(name, rowType, ['scored', width]);
    declared.set(name, t);
    rowInputs.push({ name, width, dtype: rowType });
    return t;
  };
  const index = graph.input(SCORE_INDEX, 'int64', ['scored']);
  const scored = graph.scope('logprobs', () => scoredLogProbs(model, targets, index, options.temperature ?? 1));
  const logprobs = scored.logprobs;
  let entropy: Tensor | undefined;
  const ctx: LossContext = {
    graph,
    dtype,
    logprobs,
    mask,
    entropy: () => (entropy ??= graph.scope('entropy', scored.entropy)),
    totalTokens: () => declare(TOTAL_TOKENS, [], totals),
    totalSequences: () => declare(TOTAL_SEQUENCES, [], totals),
    sequenceInput: (name) => declare(name, ['batch'], sequenceInputs),
    tokenInput: (name) => declare(name, ['batch', 'seq'], tokenInputs),
    scoredRows: () => ({ logits: scored.logits, mask: o.gather(o.reshape(mask, [-1]), index, 0) }),
    rowInput: declareRows,
  };
  const { loss, metrics = {}, outputs = {} } = graph.scope('loss', () => options.loss.build(ctx));
  graph.output(loss, LOSS);
  graph.output(logprobs, LOGPROBS);
  for (const [name, t] of Object.entries(metrics)) graph.output(t, metricName(name));
  for (const [name, t] of Object.entries(outputs)) graph.output(t, name);
  const parameters = [
    ...[...model.lora.keys()].flatMap((path) => [loraInputNames(path).a, loraInputNames(path).b]),
    ...trainable,
  ];
  if (options.withGradients !== false) {
    const wrt = [
      ...[...model.lora.values()].flatMap(({ a, b }) => [a, b]),
      ...trainable.map((name) => {
        const t = model.trainable.get(name);
        if (!t) throw new RangeError(`buildTrainGraph: '${name}' is not a weight of this model`);
        return t;
      }),
    ];
    gradients(loss, wrt).forEach((g, i) => graph.output(g, gradName(parameters[i]!)));
  }
  return {
    graph,
    model,
    parameters,
    sequenceInputs,
    tokenInputs,
    rowInputs,
    totals,
    metrics: Object.keys(metrics),
    outputs: Object.keys(outputs),
    scoreAll: options.scoreAll ?? false,
  };
}

/**
 * Log-probs [batch, seq] computed only at the flattened positions in `index` (0 elsewhere): the
 * LM head, the widest matrix of a small model, skips prompt and env tokens nobody trains on.
 * The entropy of the same rows is built only if a loss asks for it (a second pass over the vocabulary).
 * `logits` are those rows' logits at the temperature, [scored, vocab].
 */
function scoredLogProbs(
  model: ModelGraph,
  targets: Tensor,
  index: Tensor,
  temperature: number,
): { logprobs: Tensor; logits: Tensor; entropy: () => Tensor } {
  const width = model.config.hiddenSize;
  const rows = o.gather(o.reshape(model.hidden, [-1, width]), index, 0);
  const logits = o.matmul(rows, o.transpose(model.head));
  const flatTargets = o.reshape(targets, [-1]);
  const scaled = temperature === 1 ? logits : o.div(logits, temperature);
  const scored = tokenLogProbs(scaled, o.gather(flatTargets, index, 0));
  const spread = (values: Tensor) =>
    reshapeLike(
      o.scatterElements(zerosLike(o.cast(flatTargets, logits.dtype)), index, values, 0),
      o.cast(targets, logits.dtype),
    );
  return {
    logprobs: spread(scored),
    logits: scaled,
    entropy: () => spread(tokenEntropy(o.stopGradient(logits), temperature)),
  };
}
