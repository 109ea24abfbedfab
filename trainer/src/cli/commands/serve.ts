import type { ExecutionProvider } from '../../engine/runtime.js';
import { DEFAULT_COMPILE_BUDGET } from '../../generate/compile-budget.js';
import { CONSTRAINED_LOGPROBS, LOGPROBS_MODES } from '../../generate/sampler.js';
import { listen } from '../../serve/app.js';
import { createServeContext } from '../../serve/create.js';
import { DEFAULT_PREPARE_OPTIONS } from '../../serve/prepare-pool.js';
import { defineCommand, UsageError } from '../command.js';
import { DEVICES } from './sft/options.js';

export const serveCommand = defineCommand({
  name: 'serve',
  summary: "Serve a model and LoRA adapters over vLLM/OpenAI-compatible HTTP and TRL's /generate/",
  description: [
    'Starts the generation engine (KV-cache decode, continuous batching) and an HTTP server with',
    '/v1/completions, /v1/chat/completions, /v1/models, /tokenize, /detokenize, /health, /metrics, runtime',
    "/v1/load_lora_adapter and /v1/unload_lora_adapter, and TRL's /generate/, /health/ and",
    "/get_world_size/. Requests pick an adapter by putting its name in `model`; the base model's",
    'name means no adapter. Without --model it serves the built-in tiny model (named `tiny`).',
    'Adapters load at start from --adapter NAME=PATH, repeated, comma-separated, or listed after one',
    "--adapter as vLLM's --lora-modules does; at runtime only from inside --adapter-root folders.",
    'With --api-key (or VLLM_API_KEY / GAUNTLET_TOKEN), every route but /health and /health/ needs',
    '"Authorization: Bearer KEY"; without one every route is open, so bind a public --host only with a key.',
    'For GRPO rollouts use --logprobs-mode processed_logprobs: sampled logprobs are then the',
    'temperature-scaled log-probs the trainer computes. Runs until interrupted (Ctrl-C).',
  ].join('\n'),
  positionals: [
    {
      name: 'NAME=PATH',
      help: 'More adapters after --adapter (vLLM --lora-modules style)',
      optional: true,
      variadic: true,
    },
  ],
  options: {
    model: {
      kind: 'string',
      valueName: 'DIR',
      help: 'Hugging Face model folder (config.json, *.safetensors, tokenizer.json)',
      defaultText: 'built-in tiny model',
    },
    adapter: {
      kind: 'list',
      valueName: 'NAME=PATH',
      help: 'A PEFT LoRA folder to load at start, served as NAME',
      repeatable: true,
    },
    'adapter-root': {
      kind: 'list',
      valueName: 'DIR',
      help: 'A folder /v1/load_lora_adapter may read adapters from, symlinks resolved (no roots: runtime loading is off)',
      defaultText: 'the --adapter folders',
      repeatable: true,
      noSplit: true,
    },
    'api-key': {
      kind: 'list',
      valueName: 'KEY',
      help: 'Require "Authorization: Bearer KEY" on every route but /health and /health/; several keys: any of them. The environment keeps it out of ps',
      // VLLM_API_KEY as vLLM reads it, else GAUNTLET_TOKEN (the env server's name for the same secret).
      env: ['VLLM_API_KEY', 'GAUNTLET_TOKEN'],
      defaultText: 'none: open',
      repeatable: true,
      noSplit: true,
    },
    port: { kind: 'integer', min: 0, default: 8001, valueName: 'N', help: 'Port to listen on (0 = any free port)' },
    host: { kind: 'string', default: '127.0.0.1', valueName: 'ADDR', help: 'Address to bind' },
    'served-model-name': {
      kind: 'string',
      valueName: 'NAME',
      help: 'Name of the base model in requests and /v1/models',
      defaultText: 'the folder name, or tiny',
    },
    'max-batch': {
      kind: 'integer',
      min: 1,
      default: 32,
      valueName: 'N',
      help: 'Sequences decoded together per step',
    },
    'max-waiting': {
      kind: 'integer',
      min: 0,
      default: 256,
      valueName: 'N',
      help: 'Sequences queued behind a full batch before requests get 503 (a request needing more than --max-batch + --max-waiting at once gets 400)',
    },
    'prefix-cache-tokens': {
      kind: 'integer',
      min: 0,
      valueName: 'N',
      help: 'Tokens of keys and values kept so prompts that extend an earlier one prefill only their new tokens (least recently used dropped first; 0 = off)',
      defaultText: 'what 512 MiB holds',
    },
    'logprobs-mode': {
      kind: 'string',
      choices: LOGPROBS_MODES,
      default: 'raw_logprobs',
      valueName: 'MODE',
      help: "What sampled tokens' logprobs are, as vLLM's flag: raw_logprobs (the model's), processed_logprobs (the distribution the token was drawn from: temperature, penalty, top-k/top-p/min-p and structured outputs applied; rollouts for GRPO need this), raw_logits or processed_logits. Prompt logprobs are always the model's",
    },
    'constrained-logprobs': {
      kind: 'string',
      choices: CONSTRAINED_LOGPROBS,
      default: 'drawn',
      valueName: 'WHICH',
      help: "With processed logprobs and structured outputs: drawn (the grammar's disallowed tokens out: the distribution drawn from, as vLLM) or unconstrained (penalty, temperature and filters over every token: what a trainer that does not apply the grammar computes, for GRPO's sampler correction)",
    },
    'return-tokens-as-token-ids': {
      kind: 'boolean',
      help: 'Name tokens "token_id:N" in logprob lists unless a request sets return_tokens_as_token_ids',
    },
    'prepare-threads': {
      kind: 'integer',
      min: 1,
      default: DEFAULT_PREPARE_OPTIONS.threads,
      valueName: 'N',
      help: 'Threads that tokenize large inputs, parse large bodies and compile structured outputs off the event loop (one slow input holds one of them)',
    },
    'prepare-timeout-ms': {
      kind: 'integer',
      min: 1,
      default: DEFAULT_PREPARE_OPTIONS.timeoutMs,
      valueName: 'MS',
      help: 'How long one input may run on a preparation thread (then 400, and the thread is replaced) and wait for one (then 503); /health answers 503 while a request has waited over half of it',
    },
    'max-regex-states': {
      kind: 'integer',
      min: 1,
      default: DEFAULT_COMPILE_BUDGET.maxStates,
      valueName: 'N',
      help: 'NFA states, and DFA states, a structured-output regex (or JSON schema, or choice) may compile to (more: 400)',
    },
    'max-regex-compile-ms': {
      kind: 'integer',
      min: 1,
      default: DEFAULT_COMPILE_BUDGET.maxMs,
      valueName: 'MS',
      help: 'How long compiling one structured-output spec may take (longer: 400; refusals are cached too)',
    },
    'structured-cache': {
      kind: 'integer',
      min: 1,
      default: 64,
      valueName: 'N',
      help: 'Compiled structured-output specs (and refused ones) kept, least recently used dropped first',
    },
    'max-tokenize-chars': {
      kind: 'integer',
      min: 1,
      valueName: 'N',
      help: 'Characters a /tokenize input may have (more: 400)',
      defaultText: "what any prompt may have: max_model_len × the longest token's characters × 4",
    },
    threads: {
      kind: 'integer',
      min: 1,
      valueName: 'N',
      help: 'onnxruntime intra-op threads',
      defaultText: 'one per core',
    },
    device: {
      kind: 'string',
      choices: DEVICES,
      default: 'cpu',
      valueName: 'NAME',
      help: "Execution provider: cpu or cuda (onnxruntime-node's CUDA binaries; measured in docs/trainer.md)",
    },
  },
  examples: [
    'gauntlet-trainer serve',
    'gauntlet-trainer serve --model ./models/tiny --adapter step100=./runs/step-100/adapter --port 8001',
    'gauntlet-trainer serve --adapter a=./adapters/a --adapter b=./adapters/b',
    'VLLM_API_KEY=secret gauntlet-trainer serve --adapter-root ./runs --logprobs-mode processed_logprobs',
  ],
  async run(context) {
    const values = context.options;
    const given = values.adapter ?? [];
    if (context.positionals.length > 0 && given.length === 0) {
      throw new UsageError(
        `serve: unexpected argument ${JSON.stringify(context.positionals[0])} (adapters go after --adapter)`,
      );
    }
    const adapters = [...given, ...context.positionals].map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0 || at === pair.length - 1)
        throw new UsageError(`--adapter takes name=path pairs (got ${JSON.stringify(pair)})`, 'adapter');
      return { name: pair.slice(0, at), path: pair.slice(at + 1) };
    });
    const twice = adapters.find((a, i) => adapters.findIndex((b) => b.name === a.name) !== i);
    if (twice) throw new UsageError(`--adapter: the name ${JSON.stringify(twice.name)} is given twice`, 'adapter');
    const threads = values.threads;
    const roots = values['adapter-root'] ?? [];
    const ctx = await createServeContext({
      modelDir: values.model,
      servedModelName: values['served-model-name'],
      adapters,
      ...(roots.length ? { adapterRoots: roots } : {}),
      apiKeys: values['api-key'] ?? [],
      logprobsMode: values['logprobs-mode'] as (typeof LOGPROBS_MODES)[number],
      constrainedLogprobs: values['constrained-logprobs'] as (typeof CONSTRAINED_LOGPROBS)[number],
      returnTokensAsTokenIds: values['return-tokens-as-token-ids'],
      log: (line) => context.io.err(line),
      maxBatch: values['max-batch'],
      maxWaiting: values['max-waiting'],
      prefixCacheTokens: values['prefix-cache-tokens'],
      prepare: {
        threads: values['prepare-threads'],
        timeoutMs: values['prepare-timeout-ms'],
        budget: { maxStates: values['max-regex-states'], maxMs: values['max-regex-compile-ms'] },
      },
      structuredCacheSize: values['structured-cache'],
      limits: { tokenizeChars: values['max-tokenize-chars'] },
      runtime: {
        executionProvider: values.device as ExecutionProvider,
        ...(threads ? { intraOpNumThreads: threads } : {}),
      },
    });
    const server = await listen(ctx, values.port, values.host)
      // The model and its threads are up already: a port that cannot be had must not leave them running.
      .catch(async (error: unknown) => {
        await ctx.close();
        throw error;
      });
    context.io.out(
      `serving ${ctx.adapters.baseName}${adapters.length ? ` + ${adapters.map((a) => a.name).join(', ')}` : ''} at ${server.url}`,
    );
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      context.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.close();
    await ctx.close();
  },
});
