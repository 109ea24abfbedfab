import { causalMaskBias } from '../engine/composites/attention.js';
import { rmsNorm } from '../engine/composites/norm.js';
import { ropeTables } from '../engine/composites/rope.js';
import { Graph } from '../engine/graph.js';
import type { Tensor } from '../engine/graph.js';
import { hostTensor } from '../engine/host-tensor.js';
import * as o from '../engine/ops.js';
import type { LoraAdapter } from '../lora/adapter.js';
import { loraModuleSlots } from '../lora/adapter.js';
import type { LoraConfig } from '../lora/config.js';
import { loraScale } from '../lora/config.js';
import type { ModelConfig } from '../model/config.js';
import { ModelFileError } from '../model/errors.js';
import { decoderLayer } from './graph-layer.js';
import type { LoraInputs } from './graph-linear.js';
import { outputHeadName } from '../model/layout.js';
import { ropeInverseFrequencies } from '../model/rope.js';
import type { WeightMap } from '../model/weights.js';

export const INPUT_IDS = 'input_ids';
export const ATTENTION_MASK = 'attention_mask';
export const POSITION_IDS = 'position_ids';

/** Graph input names of an adapted module's factors (PEFT layout: A [r, in], B [out, r]). */
export function loraInputNames(path: string): { a: string; b: string } {
  return { a: `${path}.lora_A.weight`, b: `${path}.lora_B.weight` };
}

export interface ModelGraphOptions {
  /** float32 to run; float64 for finite-difference checks. */
  dtype?: 'float32' | 'float64';
  /** Adapted modules become graph inputs, so new adapter values need no rebuild. */
  lora?: LoraConfig;
  /** Build into this graph (a training graph adds its loss after the forward). */
  graph?: Graph;
  /** Base weights (by Hugging Face name) that become graph inputs, fed each run, instead of initializers: the ones a run trains. */
  trainable?: ReadonlySet<string>;
}

export interface ModelGraph {
  graph: Graph;
  config: ModelConfig;
  /** [batch, seq] int64 inputs. */
  inputIds: Tensor;
  attentionMask: Tensor;
  positionIds: Tensor;
  /** Final-norm hidden states [batch, seq, hidden]. */
  hidden: Tensor;
  /** [batch, seq, vocab]. */
  logits: Tensor;
  /** The output projection [vocab, hidden] (the embedding when tied). */
  head: Tensor;
  /** Adapter inputs by module path (`model.layers.0.self_attn.q_proj`). */
  lora: Map<string, LoraInputs>;
  loraConfig?: LoraConfig;
  /** Base weights that are inputs (see ModelGraphOptions.trainable), by name. */
  trainable: Map<string, Tensor>;
}

/**
 * The Llama-family decoder (Llama, Qwen2 with qkv bias, Qwen3 with QK-norm; GQA, RoPE with the
 * config's theta and scaling, SwiGLU, tied or untied head) as an ONNX graph. Base weights become
 * initializers, fed to the runtime once; LoRA factors and trained base weights are inputs.
 */
export function buildModelGraph(config: ModelConfig, weights: WeightMap, options: ModelGraphOptions = {}): ModelGraph {
  const dtype = options.dtype ?? 'float32';
  const graph = options.graph ?? new Graph(`${config.architecture}-forward`);
  const inputIds = graph.input(INPUT_IDS, 'int64', ['batch', 'seq']);
  const attentionMask = graph.input(ATTENTION_MASK, 'int64', ['batch', 'seq']);
  const positionIds = graph.input(POSITION_IDS, 'int64', ['batch', 'seq']);
  const lora = new Map<string, LoraInputs>();
  for (const slot of options.lora ? loraModuleSlots(config, options.lora) : []) {
    const names = loraInputNames(slot.path);
    lora.set(slot.path, { a: graph.input(names.a, dtype, slot.aShape), b: graph.input(names.b, dtype, slot.bShape) });
  }
  const initializers = new Map<string, Tensor>();
  const trainable = new Map<string, Tensor>();
  const weight = (name: string): Tensor => {
    const known = initializers.get(name) ?? trainable.get(name);
    if (known) return known;
    const w = weights.get(name);
    if (!w)
      throw new ModelFileError('<weights>', `tensor ${name} is missing for the ${config.architecture} graph`, name);
    if (options.trainable?.has(name)) {
      const t = graph.input(name, dtype, w.shape);
      trainable.set(name, t);
      return t;
    }
    const data = dtype === 'float64' ? Float64Array.from(w.data) : w.data;
    const t = graph.weight(name, hostTensor(dtype, w.shape, data as never, name));
    initializers.set(name, t);
    return t;
  };
  const context = {
    config,
    weight,
    lora: (path: string) => lora.get(path),
    loraScale: options.lora ? loraScale(options.lora) : 1,
    rope: graph.scope('rope', () =>
      ropeTables(positionIds, ropeInverseFrequencies(config.headDim, config.ropeTheta, config.ropeScaling), dtype),
    ),
    maskBias: graph.scope('mask', () => causalMaskBias(attentionMask, dtype)),
  };
  let h = graph.scope('embed', () => o.gather(weight('model.embed_tokens.weight'), inputIds, 0));
  for (let layer = 0; layer < config.numLayers; layer++)
    h = graph.scope(`layers.${layer}`, () => decoderLayer(context, layer, h));
  const hidden = graph.scope('norm', () => rmsNorm(h, weight('model.norm.weight'), config.rmsNormEps));
  const head = weight(outputHeadName(config));
  const logits = graph.scope('lm_head', () => o.matmul(hidden, o.transpose(head)));
  return {
    graph,
    config,
    inputIds,
    attentionMask,
    positionIds,
    hidden,
    logits,
    head,
    lora,
    trainable,
    ...(options.lora ? { loraConfig: options.lora } : {}),
  };
}

/** Feeds for an adapter's factors under their graph input names (float64 for gradient checks). */
export function adapterFeeds(adapter: LoraAdapter, dtype: 'float32' | 'float64' = 'float32') {
  const feeds: Record<string, ReturnType<typeof hostTensor>> = {};
  for (const [path, { a, b }] of adapter.modules) {
    const names = loraInputNames(path);
    const cast = (data: Float32Array) => (dtype === 'float64' ? Float64Array.from(data) : data);
    feeds[names.a] = hostTensor(dtype, a.shape, cast(a.data) as never, names.a);
    feeds[names.b] = hostTensor(dtype, b.shape, cast(b.data) as never, names.b);
  }
  return feeds;
}
