import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { RuntimeOptions } from '../engine/runtime.js';
import type { CompileBudget } from '../generate/compile-budget.js';
import { GenerationEngine } from '../generate/engine.js';
import { KvModel } from '../generate/kv-model.js';
import type { ConstrainedLogprobs, LogprobsMode } from '../generate/sampler.js';
import { constraintCompiler } from '../generate/structured.js';
import { BUILTIN_TINY_MODEL_NAME, writeTinyModel } from '../model/tiny.js';
import { ModelTokenizer } from '../model/tokenizer.js';
import { loadModel } from '../model/weights.js';
import { AdapterRoots } from './adapter-roots.js';
import { AdapterRegistry } from './adapters.js';
import { ApiKeys } from './auth.js';
import type { ServeContext, ServeLimits } from './context.js';
import { DEFAULT_PREPARE_OPTIONS, PreparePool, type PrepareOptions } from './prepare-pool.js';
import { PromptTokenizer } from './prompt-tokenizer.js';

export interface ServeOptions {
  /** A Hugging Face model folder; absent = the built-in tiny model (seeded, written to a temp folder, read, and removed). */
  modelDir?: string | undefined;
  /** The name requests use for the base model (default: the folder's name, or `tiny`). */
  servedModelName?: string | undefined;
  adapters?: { name: string; path: string }[];
  /** Folders runtime load_lora_adapter calls may read from (default: the folders of `adapters`; none = runtime loading off). */
  adapterRoots?: string[] | undefined;
  /** Bearer keys every route but /health needs (none = open). */
  apiKeys?: string[] | undefined;
  /** What sampled tokens' logprobs are (vLLM's --logprobs-mode; default raw_logprobs). */
  logprobsMode?: LogprobsMode;
  /** Whether processed logprobs see the structured-output mask (default drawn, as vLLM). */
  constrainedLogprobs?: ConstrainedLogprobs;
  /** Name tokens `token_id:N` in logprob lists by default (vLLM's --return-tokens-as-token-ids). */
  returnTokensAsTokenIds?: boolean;
  /** The server's log (what replies leave out, such as why an adapter failed to load); default stderr. */
  log?: (line: string) => void;
  limits?: Partial<ServeLimits>;
  maxBatch?: number;
  maxWaiting?: number;
  /** Tokens of keys and values the prefix cache keeps (0 = off; default: what 512 MiB holds). */
  prefixCacheTokens?: number | undefined;
  maxLoraRank?: number;
  runtime?: RuntimeOptions;
  /**
   * Weights the generation graph takes as inputs instead of baking in (a full-parameter GRPO
   * run's own server: each published version feeds its trained weights; see buildKvGraph).
   */
  fedWeights?: readonly string[];
  /** The preparation threads: how many, how long a call may take, what a regex may cost to compile. */
  prepare?: Partial<Omit<PrepareOptions, 'budget'>> & { budget?: Partial<CompileBudget> };
  /** Compiled structured-output specs kept (least recently used dropped first; default 64). */
  structuredCacheSize?: number;
}

/** Loads the model, tokenizer and adapters and starts an engine: everything a server needs. */
export async function createServeContext(options: ServeOptions = {}): Promise<ServeContext> {
  if (options.modelDir) return contextFrom(resolve(options.modelDir), options);
  // Everything is read into memory at start, so the built-in model's folder need not outlive it.
  const root = await mkdtemp(join(tmpdir(), 'gauntlet-tiny-'));
  try {
    const dir = join(root, 'tiny');
    await writeTinyModel(dir, { seed: 0 });
    return await contextFrom(dir, options);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The name a model folder is served under when none is given: its last path segment, as vLLM does. */
export function servedModelName(modelDir: string): string {
  return basename(resolve(modelDir));
}

async function contextFrom(dir: string, options: ServeOptions): Promise<ServeContext> {
  const { config, weights } = await loadModel(dir);
  const tokenizer = await ModelTokenizer.load(dir);
  const limits: ServeLimits = {
    maxModelLen: config.maxPositionEmbeddings,
    maxN: 64,
    maxTokens: config.maxPositionEmbeddings,
    maxPrompts: 256,
    bodyBytes: 8 * 1024 * 1024,
    ...options.limits,
  };
  const baseName = options.servedModelName ?? (options.modelDir ? servedModelName(dir) : BUILTIN_TINY_MODEL_NAME);
  const roots = await AdapterRoots.resolve(options.adapterRoots ?? (options.adapters ?? []).map((a) => a.path));
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  // Started while the folder exists (the pool keeps the tokenizer files' text): the built-in model's is removed once everything is read.
  const thread = await PreparePool.start(dir, {
    ...DEFAULT_PREPARE_OPTIONS,
    ...options.prepare,
    budget: { ...DEFAULT_PREPARE_OPTIONS.budget, ...options.prepare?.budget },
  });
  const prompts = new PromptTokenizer(tokenizer, thread, limits.maxModelLen, limits.tokenizeChars);
  let model: KvModel | undefined;
  try {
    const fedWeights = options.fedWeights ?? [];
    model = await KvModel.create(config, weights, options.runtime, { thread: true, fedWeights });
    const engine = new GenerationEngine(model, {
      eosTokenIds: tokenizer.eosTokenIds.length ? tokenizer.eosTokenIds : config.eosTokenIds,
      decode: (ids) => tokenizer.decode(ids, { skipSpecialTokens: true }),
      ...(options.maxBatch ? { maxBatch: options.maxBatch } : {}),
      ...(options.maxWaiting ? { maxWaiting: options.maxWaiting } : {}),
      ...(options.prefixCacheTokens !== undefined ? { prefixCacheTokens: options.prefixCacheTokens } : {}),
      ...(options.logprobsMode ? { logprobsMode: options.logprobsMode } : {}),
      ...(options.constrainedLogprobs ? { constrainedLogprobs: options.constrainedLogprobs } : {}),
    });
    const adapters = new AdapterRegistry(baseName, config, options.maxLoraRank, roots, log, {
      names: fedWeights,
      base: new Map(fedWeights.map((name) => [name, weights.get(name)!])),
    });
    for (const a of options.adapters ?? []) await adapters.load(a.name, a.path);
    const constraints = constraintCompiler(
      tokenizer,
      config.vocabSize,
      (spec) => thread.compile(spec),
      options.structuredCacheSize,
    );
    const running = model;
    const close = async () => {
      await Promise.all([thread.close(), running.release()]);
    };
    return {
      engine,
      tokenizer,
      prompts,
      prepare: thread,
      config,
      adapters,
      limits,
      constraints,
      apiKeys: new ApiKeys(options.apiKeys ?? []),
      returnTokensAsTokenIds: options.returnTokensAsTokenIds ?? false,
      log,
      startedAt: Math.floor(Date.now() / 1000),
      close,
    };
  } catch (error) {
    await Promise.all([thread.close(), model?.release()]);
    throw error;
  }
}
