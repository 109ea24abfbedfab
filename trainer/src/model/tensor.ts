/**
 * Host-side tensors: row-major float32 data with its shape. Weights, LoRA factors and
 * safetensors contents all use this one shape so they pass between modules without conversion.
 */
export interface Tensor {
  shape: number[];
  data: Float32Array;
}

/** Tensors by name; for model weights the names are Hugging Face's (`model.layers.0.mlp.up_proj.weight`). */
export type TensorMap = Map<string, Tensor>;

export function elementCount(shape: readonly number[]): number {
  return shape.reduce((count, dim) => count * dim, 1);
}

export function formatShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((dim, i) => dim === b[i]);
}
