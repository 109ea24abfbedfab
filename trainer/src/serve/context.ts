import type { GenerationEngine } from '../generate/engine.js';
import type { TokenConstraint } from '../generate/constraint.js';
import type { StructuredSpec } from '../generate/structured.js';
import type { ModelConfig } from '../model/config.js';
import type { ModelTokenizer } from '../model/tokenizer.js';
import type { AdapterRegistry } from './adapters.js';
import type { ApiKeys } from './auth.js';
import type { PreparePool } from './prepare-pool.js';
import type { PromptTokenizer } from './prompt-tokenizer.js';

export interface ServeLimits {
  /** Prompt + completion tokens per sequence (vLLM's max_model_len). */
  maxModelLen: number;
  maxN: number;
  maxTokens: number;
  /** Prompts per request (a list of prompts is a batch). */
  maxPrompts: number;
  bodyBytes: number;
  /** Characters a /tokenize input may have (default: PromptTokenizer's maxPromptChars, what any prompt may have). */
  tokenizeChars?: number | undefined;
}

/** Structured-output spec → a fresh constraint per sequence (undefined = unconstrained), compiled off the event loop. */
export type ConstraintFactory = (spec: StructuredSpec) => Promise<(() => TokenConstraint) | undefined>;

/** What every handler needs: one engine, one tokenizer, the adapter registry and the limits. */
export interface ServeContext {
  engine: GenerationEngine;
  /** For small things on the event loop: a token's text, a completion's text. */
  tokenizer: ModelTokenizer;
  /** Prompts, conversations and id lists of any size, encoded and decoded without stalling the server. */
  prompts: PromptTokenizer;
  /** The preparation threads: large bodies, large inputs and structured outputs are handled there. */
  prepare: PreparePool;
  config: ModelConfig;
  adapters: AdapterRegistry;
  limits: ServeLimits;
  constraints: ConstraintFactory;
  apiKeys: ApiKeys;
  /** Name tokens `token_id:N` in logprob lists unless a request says otherwise (vLLM's --return-tokens-as-token-ids). */
  returnTokensAsTokenIds: boolean;
  /** The server's log: what replies leave out (stacks of unexpected errors, adapter load details). */
  log: (line: string) => void;
  startedAt: number;
  /** Stops the engine's and the tokenizer's threads. */
  close(): Promise<void>;
}
