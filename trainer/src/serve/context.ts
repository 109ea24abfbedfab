import type { GenerationEngine } from '../generate/engine.js';
import type { TokenConstraint } from '../generate/constraint.js';
import type { StructuredSpec } from '../generate/structured.js';
import type { ModelConfig } from '../model/config.js';
import type { ModelTokenizer } from '../model/tokenizer.js';
import type { AdapterRegistry } from './adapters.js';
import type { ApiKeys } from './auth.js';

export interface ServeLimits {
  /** Prompt + completion tokens per sequence (vLLM's max_model_len). */
  maxModelLen: number;
  maxN: number;
  maxTokens: number;
  /** Prompts per request (a list of prompts is a batch). */
  maxPrompts: number;
  bodyBytes: number;
}

/** Structured-output spec → a fresh constraint per sequence (undefined = unconstrained). */
export type ConstraintFactory = (spec: StructuredSpec) => (() => TokenConstraint) | undefined;

/** What every handler needs: one engine, one tokenizer, the adapter registry and the limits. */
export interface ServeContext {
  engine: GenerationEngine;
  tokenizer: ModelTokenizer;
  config: ModelConfig;
  adapters: AdapterRegistry;
  limits: ServeLimits;
  constraints: ConstraintFactory;
  apiKeys: ApiKeys;
  /** The server's log: what replies leave out (stacks of unexpected errors, adapter load details). */
  log: (line: string) => void;
  startedAt: number;
}
