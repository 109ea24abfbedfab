// Self-distillation fine-tuning (SDFT): a demo-conditioned EMA teacher distilled into the student's adapter.
export * from './demo-states.js';
export * from './ema.js';
export * from './loss.js';
export * from './step.js';
export * from './teacher-prompt.js';
export * from './distribution-scorer.js';
export * from './top-k.js';
