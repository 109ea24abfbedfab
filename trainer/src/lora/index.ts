// LoRA: config, adapter tensors, PEFT on-disk format, merging into base weights.
export * from './config.js';
export * from './adapter.js';
export * from './peft.js';
export * from './peft-config.js';
export * from './merge.js';
