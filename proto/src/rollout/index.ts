export * from './outcome.js';
export * from './trajectory.js';
export * from './jobs.js';
export * from './policy-servers.js';
export { TrajectoryBuilder, type TrajectoryBuilderOptions } from './builder.js';
export { rolloutSequence, turnPromptIds, type RolloutSequence } from './tokens.js';
