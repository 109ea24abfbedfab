// What a GRPO run reads and writes: adapter publishing with verification, checkpoints, and the run report.
export * from './publish/index.js';
export * from './checkpoint/index.js';
export * from './report/index.js';
