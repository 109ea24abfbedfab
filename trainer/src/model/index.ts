// The model package's public surface: config, weights, tokenizer, tiny model, safetensors I/O.
// The ONNX forward graph (which takes LoRA inputs) is one layer up, in graph/.
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
