// LoRA training: training graph (log-probs, pluggable loss, LoRA gradients), AdamW, clipping,
// schedules, micro-batched accumulation, forward-only scoring, the SFT loop, GRPO and DPO.
export * from './loss.js';
export * from './train-graph.js';
export * from './batch.js';
export * from './adamw.js';
export * from './clip.js';
export * from './schedule.js';
export * from './trainer.js';
export * from './logprob-scorer.js';
export * from './sft.js';
export * from './sft-data.js';
export * from './sft-encode.js';
export * from './grpo/index.js';
export * from './dpo/index.js';
export * from './sdft/index.js';
