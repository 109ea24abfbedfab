// DPO: the loss (sigmoid with label smoothing, ipo), preference pairs, the learner and its loop.
export * from './config.js';
export * from './loss.js';
export * from './pairs.js';
export * from './learner.js';
export * from './run.js';
export * from './data.js';
export * from './encode.js';
export * from './reference-cache.js';
export * from './cached-scoring.js';
