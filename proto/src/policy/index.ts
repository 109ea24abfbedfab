export * from './requests.js';
export * from './replies.js';
export * from './errors.js';
export {
  PolicyClient,
  type ChatInput,
  type CompletionInput,
  type DetokenizeInput,
  type PolicyClientOptions,
  type TokenizeInput,
} from './client.js';
export type { Generation, GenerationRequest } from './generation.js';
