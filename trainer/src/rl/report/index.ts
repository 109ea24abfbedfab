// A GRPO run's report: metrics as JSONL, Prometheus gauges (gauntlet_grpo_*), a live curves page,
// and a progress line per update.
export * from './update.js';
export * from './prometheus.js';
export * from './progress.js';
export * from './curves-page.js';
export * from './run-report.js';
export * from './curves-svg.js';
export * from './curves-png.js';
