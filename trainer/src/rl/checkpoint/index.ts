// Checkpoints of a GRPO run: adapter, optimizer state, step, RNG, config, curriculum and counters,
// written atomically and validated on load.
export * from './errors.js';
export * from './state.js';
export * from './store.js';
