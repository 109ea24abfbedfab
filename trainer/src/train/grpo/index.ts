// GRPO: group advantages (and GiGPO's step-level ones), the clipped importance-weighted loss, host-side metrics, and one update
// over a generation batch (grpoStep).
export * from './config.js';
export * from './advantages.js';
export * from './gigpo.js';
export * from './loss.js';
export * from './samples.js';
export * from './metrics.js';
export * from './step.js';
