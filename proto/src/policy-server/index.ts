export * from './requests.js';
export * from './replies.js';
export * from './errors.js';
export { PolicyClient, type PolicyClientOptions } from './client.js';
export type { Generation, GenerationRequest } from './generation.js';
