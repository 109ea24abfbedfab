// The ONNX forward graph of a model with its LoRA inputs, its batch feeds and a forward-only runner.
export * from './graph.js';
export * from './graph-feeds.js';
export * from './graph-runner.js';
export type { LoraInputs } from './graph-linear.js';
