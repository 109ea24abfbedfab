export * from './outcome.js';
export * from './trajectory.js';
export * from './consumed-group.js';
export * from './jobs.js';
export * from './policy-servers.js';
export { TokenHistory, type TokenHistoryOptions } from './token-history.js';
export { rolloutSequence, turnPromptIds, type RolloutSequence } from './tokens.js';
export * from './policy-version.js';
