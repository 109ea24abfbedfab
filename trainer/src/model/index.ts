// The model package's public surface: config, weights, tokenizer, tiny model, safetensors I/O,
// and the ONNX forward graph with its batch feeds and a forward-only runner.
export * from './config.js';
export * from './config-json.js';
export * from './errors.js';
export * from './layout.js';
export * from './weights.js';
export * from './model-files.js';
export * from './safetensors.js';
export * from './tensor.js';
export * from './tokenizer.js';
export * from './chat-template.js';
export * from './tiny.js';
export * from './random.js';
export { ropeInverseFrequencies } from './rope.js';
export * from './graph.js';
export * from './graph-feeds.js';
export * from './graph-runner.js';
export type { LoraInputs } from './graph-linear.js';
