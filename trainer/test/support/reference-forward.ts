/**
 * A plain reference forward pass for Llama / Qwen2 / Qwen3, for tests only: one token at a time,
 * float64 loops, no caching, written to be read next to transformers' modeling code. The ONNX
 * forward is checked against it; it is checked against itself through invariants
 * (reference-forward.test.ts).
 */
import type { ModelConfig } from '../../src/model/config.js';
import { loraScale } from '../../src/lora/config.js';
import type { LoraAdapter } from '../../src/lora/adapter.js';
import { linearModulePath, outputHeadName, type LinearModule } from '../../src/model/layout.js';
import { ropeInverseFrequencies } from '../../src/model/rope.js';
import type { WeightMap } from '../../src/model/weights.js';

type Vector = Float64Array;

export interface ReferenceModel {
  config: ModelConfig;
  weights: WeightMap;
}

export interface ReferenceOptions {
  adapter?: LoraAdapter;
  /** Position of each token (default 0, 1, 2, …); RoPE only sees these. */
  positions?: number[];
}

/** Logits for every position of `tokenIds`: result[t][v] is the score of token v after tokens 0..t. */
export function referenceLogits(
  model: ReferenceModel,
  tokenIds: number[],
  options: ReferenceOptions = {},
): Float64Array[] {
  const { config } = model;
  const positions = options.positions ?? tokenIds.map((_, t) => t);
  let hidden = tokenIds.map((id) => row(weight(model, 'model.embed_tokens.weight'), id, config.hiddenSize));
  for (let layer = 0; layer < config.numLayers; layer++) {
    const prefix = `model.layers.${layer}`;
    const attentionInput = hidden.map((x) =>
      rmsNorm(x, weight(model, `${prefix}.input_layernorm.weight`), config.rmsNormEps),
    );
    const attentionOutput = attention(model, layer, attentionInput, positions, options.adapter);
    hidden = hidden.map((x, t) => add(x, attentionOutput[t]!));
    const mlpInput = hidden.map((x) =>
      rmsNorm(x, weight(model, `${prefix}.post_attention_layernorm.weight`), config.rmsNormEps),
    );
    hidden = hidden.map((x, t) => add(x, swiGluMlp(model, layer, mlpInput[t]!, options.adapter)));
  }
  const head = weight(model, outputHeadName(config));
  return hidden.map((x) => {
    const normed = rmsNorm(x, weight(model, 'model.norm.weight'), config.rmsNormEps);
    return matVec(head, normed, config.vocabSize);
  });
}

function attention(
  model: ReferenceModel,
  layer: number,
  inputs: Vector[],
  positions: number[],
  adapter?: LoraAdapter,
): Vector[] {
  const { numHeads, numKvHeads, headDim } = model.config;
  const project = (module: LinearModule) => inputs.map((x) => linear(model, layer, module, x, adapter));
  const queries = project('q_proj').map((q, t) => prepareHeads(model, layer, 'q', q, numHeads, positions[t]!));
  const keys = project('k_proj').map((k, t) => prepareHeads(model, layer, 'k', k, numKvHeads, positions[t]!));
  const values = project('v_proj').map((v) => splitHeads(v, numKvHeads, headDim));
  const headsPerKv = numHeads / numKvHeads; // GQA: query head h reads key/value head ⌊h / headsPerKv⌋ (repeat_kv)
  const outputs = inputs.map((_, t) => {
    const merged = new Float64Array(numHeads * headDim);
    for (let h = 0; h < numHeads; h++) {
      const kv = Math.floor(h / headsPerKv);
      // Causal: position t attends to tokens 0..t only.
      const scores = Array.from({ length: t + 1 }, (_, s) => dot(queries[t]![h]!, keys[s]![kv]!) / Math.sqrt(headDim));
      const weights = softmax(scores);
      for (let s = 0; s <= t; s++) {
        for (let d = 0; d < headDim; d++) merged[h * headDim + d]! += weights[s]! * values[s]![kv]![d]!;
      }
    }
    return merged;
  });
  return outputs.map((x) => linear(model, layer, 'o_proj', x, adapter));
}

/** Split into heads, RMS-normalise each head (Qwen3's q_norm / k_norm), then rotate (RoPE). */
function prepareHeads(
  model: ReferenceModel,
  layer: number,
  kind: 'q' | 'k',
  x: Vector,
  heads: number,
  position: number,
): Vector[] {
  const { config } = model;
  return splitHeads(x, heads, config.headDim).map((head) => {
    const normed = config.qkNorm
      ? rmsNorm(head, weight(model, `model.layers.${layer}.self_attn.${kind}_norm.weight`), config.rmsNormEps)
      : head;
    return rope(normed, position, config);
  });
}

/** transformers' `x·cos + rotate_half(x)·sin`, where rotate_half(x) = [−x₂, x₁] over the two halves. */
function rope(x: Vector, position: number, config: ModelConfig): Vector {
  const half = config.headDim / 2;
  const inverseFrequencies = ropeInverseFrequencies(config.headDim, config.ropeTheta, config.ropeScaling);
  const out = new Float64Array(config.headDim);
  for (let i = 0; i < half; i++) {
    const angle = position * inverseFrequencies[i]!;
    const [first, second] = [x[i]!, x[i + half]!];
    out[i] = first * Math.cos(angle) - second * Math.sin(angle);
    out[i + half] = second * Math.cos(angle) + first * Math.sin(angle);
  }
  return out;
}

function swiGluMlp(model: ReferenceModel, layer: number, x: Vector, adapter?: LoraAdapter): Vector {
  const gate = linear(model, layer, 'gate_proj', x, adapter);
  const up = linear(model, layer, 'up_proj', x, adapter);
  const activated = gate.map((g, i) => (g / (1 + Math.exp(-g))) * up[i]!); // silu(gate) · up
  return linear(model, layer, 'down_proj', activated, adapter);
}

/** y = W·x (+ bias) (+ scale · B·(A·x) when the adapter covers this module). */
function linear(model: ReferenceModel, layer: number, module: LinearModule, x: Vector, adapter?: LoraAdapter): Vector {
  const path = linearModulePath(layer, module);
  const w = weight(model, `${path}.weight`);
  const y = matVec(w, x, w.shape[0]!);
  const bias = model.weights.get(`${path}.bias`);
  if (bias) for (let o = 0; o < y.length; o++) y[o]! += bias.data[o]!;
  const lora = adapter?.modules.get(path);
  if (adapter && lora) {
    const ax = matVec(lora.a, x, lora.a.shape[0]!);
    const bax = matVec(lora.b, ax, lora.b.shape[0]!);
    const scale = loraScale(adapter.config);
    for (let o = 0; o < y.length; o++) y[o]! += scale * bax[o]!;
  }
  return y;
}

/** transformers' RMSNorm: x / √(mean(x²) + ε), times the weight. */
function rmsNorm(x: Vector, w: { data: Float32Array }, eps: number): Vector {
  const meanSquare = x.reduce((sum, v) => sum + v * v, 0) / x.length;
  const inverse = 1 / Math.sqrt(meanSquare + eps);
  return x.map((v, i) => v * inverse * w.data[i]!);
}

function softmax(scores: number[]): number[] {
  const max = Math.max(...scores);
  const exps = scores.map((s) => Math.exp(s - max));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

function matVec(m: { shape: number[]; data: Float32Array }, x: Vector, rows: number): Vector {
  const columns = m.shape[1]!;
  const y = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let c = 0; c < columns; c++) sum += m.data[r * columns + c]! * x[c]!;
    y[r] = sum;
  }
  return y;
}

function splitHeads(x: Vector, heads: number, headDim: number): Vector[] {
  return Array.from({ length: heads }, (_, h) => x.slice(h * headDim, (h + 1) * headDim));
}

function row(m: { data: Float32Array }, index: number, width: number): Vector {
  return Float64Array.from(m.data.subarray(index * width, (index + 1) * width));
}

function add(a: Vector, b: Vector): Vector {
  return a.map((v, i) => v + b[i]!);
}

function dot(a: Vector, b: Vector): number {
  return a.reduce((sum, v, i) => sum + v * b[i]!, 0);
}

function weight(model: ReferenceModel, name: string): { shape: number[]; data: Float32Array } {
  const tensor = model.weights.get(name);
  if (!tensor) throw new Error(`reference forward: weight ${name} missing`);
  return tensor;
}
