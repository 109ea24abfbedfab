import { rmsNorm } from '../engine/composites/norm.js';
import { ropeTables } from '../engine/composites/rope.js';
import { Graph, type Tensor } from '../engine/graph.js';
import { hostTensor } from '../engine/host-tensor.js';
import * as o from '../engine/ops.js';
import type { ModelConfig } from '../model/config.js';
import { ModelFileError } from '../model/errors.js';
import { loraInputNames } from '../graph/graph.js';
import type { LoraInputs } from '../graph/graph-linear.js';
import { outputHeadName } from '../model/layout.js';
import { ropeInverseFrequencies } from '../model/rope.js';
import type { WeightMap } from '../model/weights.js';
import { loraModuleSlots } from '../lora/adapter.js';
import { makeLoraConfig } from '../lora/config.js';
import { cachedDecoderLayer } from './kv-layer.js';
import { KV, LORA_RANK_DIM } from './kv-names.js';

const TOTAL_DIM = '(past+seq)';

/**
 * The forward pass with a KV cache, one graph for prefill and decode: `seq` new tokens per row
 * attend to `past` cached positions and to each other (causally). Prefill feeds an empty past;
 * decode feeds seq = 1. Logits are computed only for the rows listed in `logit_rows`, so a long
 * prefill does not pay the vocabulary-wide head for every prompt token.
 *
 * Weights named in `fed` are graph inputs instead of initializers (weights-as-feeds): a server
 * whose weights are being trained (GRPO with `--train full`) serves each version by feeding its
 * own set, with no new session. Fed weights lose onnxruntime's load-time packing, so only the
 * trained ones are fed.
 */
export function buildKvGraph(config: ModelConfig, weights: WeightMap, fed: readonly string[] = []): Graph {
  const graph = new Graph(`${config.architecture}-kv`);
  const inputIds = graph.input(KV.inputIds, 'int64', ['batch', 'seq']);
  const positionIds = graph.input(KV.positionIds, 'int64', ['batch', 'seq']);
  // The engine's shape inference names the concatenated key length `(past+seq)`; the mask says the same.
  const attentionMask = graph.input(KV.attentionMask, 'int64', ['batch', TOTAL_DIM]);
  const logitRows = graph.input(KV.logitRows, 'int64', ['rows']);
  const lora = new Map<string, LoraInputs>();
  for (const slot of loraModuleSlots(config, makeLoraConfig({ rank: 1 }))) {
    const names = loraInputNames(slot.path);
    lora.set(slot.path, {
      a: graph.input(names.a, 'float32', [LORA_RANK_DIM, slot.aShape[1]!]),
      b: graph.input(names.b, 'float32', [slot.bShape[0]!, LORA_RANK_DIM]),
    });
  }
  const weight = weightLookup(graph, config, weights, new Set(fed));
  const context = {
    config,
    weight,
    lora: (path: string) => lora.get(path)!,
    rope: graph.scope('rope', () =>
      ropeTables(positionIds, ropeInverseFrequencies(config.headDim, config.ropeTheta, config.ropeScaling), 'float32'),
    ),
    maskBias: graph.scope('mask', () => cachedMaskBias(attentionMask, inputIds)),
  };
  let h = graph.scope('embed', () => o.gather(weight('model.embed_tokens.weight'), inputIds, 0));
  for (let layer = 0; layer < config.numLayers; layer++) {
    const pastKey = graph.input(KV.pastKey(layer), 'float32', ['batch', config.numKvHeads, 'past', config.headDim]);
    const pastValue = graph.input(KV.pastValue(layer), 'float32', ['batch', config.numKvHeads, 'past', config.headDim]);
    const out = graph.scope(`layers.${layer}`, () => cachedDecoderLayer(context, layer, h, { pastKey, pastValue }));
    graph.output(out.key, KV.presentKey(layer));
    graph.output(out.value, KV.presentValue(layer));
    h = out.h;
  }
  const hidden = graph.scope('norm', () => rmsNorm(h, weight('model.norm.weight'), config.rmsNormEps));
  const logits = graph.scope('lm_head', () => {
    const rows = o.gather(o.reshape(hidden, [-1, config.hiddenSize]), logitRows, 0);
    return o.matmul(rows, o.transpose(weight(outputHeadName(config))));
  });
  graph.output(logits, KV.logits);
  return graph;
}

/**
 * Bias [batch, 1, 1, seq, total]: query i (at padded index past + i) sees key j when j ≤ past + i
 * and key j is real. Finite, so padding rows stay uniform instead of NaN.
 */
function cachedMaskBias(attentionMask: Tensor, inputIds: Tensor): Tensor {
  const g = attentionMask.graph;
  const zero = g.constant(0, 'int64');
  const one = g.constant(1, 'int64');
  const total = o.squeeze(o.shape(attentionMask, 1, 2), [0]);
  const seq = o.squeeze(o.shape(inputIds, 1, 2), [0]);
  const keys = o.range(zero, total, one, [TOTAL_DIM]);
  const queries = o.range(o.sub(total, seq), total, one, ['seq']);
  const causal = o.lessOrEqual(o.unsqueeze(keys, [0]), o.unsqueeze(queries, [1]));
  const visible = o.and(causal, o.unsqueeze(o.cast(attentionMask, 'bool'), [1, 2, 3]));
  return o.where(visible, g.constant(0, 'float32'), g.constant(-1e9, 'float32'));
}

function weightLookup(
  graph: Graph,
  config: ModelConfig,
  weights: WeightMap,
  fed: ReadonlySet<string>,
): (name: string) => Tensor {
  const known = new Map<string, Tensor>();
  for (const name of fed)
    if (!weights.has(name))
      throw new RangeError(`fed weight ${name} is not a weight of the ${config.architecture} model`);
  return (name) => {
    const cached = known.get(name);
    if (cached) return cached;
    const w = weights.get(name);
    if (!w)
      throw new ModelFileError('<weights>', `tensor ${name} is missing for the ${config.architecture} graph`, name);
    const t = fed.has(name)
      ? graph.input(name, 'float32', w.shape)
      : graph.weight(name, hostTensor('float32', w.shape, w.data, name));
    known.set(name, t);
    return t;
  };
}
