import { randomInt } from 'node:crypto';
import type { HostTensor } from '../engine/host-tensor.js';
import { createRng } from '../model/random.js';
import type { TokenConstraint } from './constraint.js';
import type { KvModel, StepRow } from './kv-model.js';
import { logSoftmax, sampleToken, topLogprobs, type ConstrainedLogprobs, type LogprobsMode } from './sampler.js';
import type { SamplingParams } from './sampling-params.js';
import { Sequence, type GenerationResult, type TokenEvent } from './sequence.js';
import { ValidationError } from '@gauntlet/proto';
import { QueueFullError } from './errors.js';
import { EngineStats } from './stats.js';
import { defaultPrefixCacheTokens, PrefixCache } from './prefix-cache.js';

export interface GenerateRequest {
  prompt: readonly number[];
  params: SamplingParams;
  /** Adapter feeds from the registry, captured at submission: a reload mid-generation does not change a sequence. */
  adapterFeeds: Record<string, HostTensor>;
  constraint?: TokenConstraint | undefined;
  /** Also score the prompt, with this many top alternatives per position (echo with logprobs, vLLM's prompt_logprobs). */
  promptLogprobs?: number | undefined;
  onToken?: ((event: TokenEvent) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface EngineOptions {
  eosTokenIds: readonly number[];
  decode(ids: readonly number[]): string;
  /** Sequences decoded together per step (default 32). */
  maxBatch?: number;
  /** Prompt tokens prefilled per step when several requests join at once (default 1024). */
  maxPrefillTokens?: number;
  /** Sequences queued behind a full batch; more are refused with QueueFullError (default 256). */
  maxWaiting?: number;
  /**
   * Tokens of keys and values kept for reuse by later prompts that start the same way, least
   * recently used dropped first (default: what 512 MiB holds; 0 = off). See prefix-cache.ts.
   */
  prefixCacheTokens?: number;
  /** Tokens per prefix-cache block (default 16). */
  prefixBlockTokens?: number;
  /** What sampled tokens' logprobs are (vLLM's --logprobs-mode; default raw_logprobs). Prompt logprobs are always raw. */
  logprobsMode?: LogprobsMode;
  /** Whether processed logprobs see the structured-output mask (default drawn, as vLLM). See sampler.ts. */
  constrainedLogprobs?: ConstrainedLogprobs;
}

interface Pending {
  seq: Sequence;
  request: GenerateRequest;
  resolve(result: GenerationResult): void;
  reject(error: unknown): void;
}

/**
 * Continuous batching over one KvModel. Requests wait in a queue; between decode steps waiting
 * ones join (their prompts prefilled together), every step decodes one token for each running
 * sequence, and finished ones leave at once. Rows with different adapters run as separate steps
 * (the adapter is a graph input shared by the batch). A prompt that starts with a cached prefix
 * (computed under the same adapter) copies those keys and values and prefills only the rest.
 */
export class GenerationEngine {
  readonly stats = new EngineStats();
  private readonly waiting: Pending[] = [];
  private running: Pending[] = [];
  private loop: Promise<void> | undefined;
  /** Absent when turned off. */
  readonly prefixCache: PrefixCache | undefined;

  constructor(
    readonly model: KvModel,
    private readonly options: EngineOptions,
  ) {
    const tokens = options.prefixCacheTokens ?? defaultPrefixCacheTokens(model.config);
    const cache = new PrefixCache(model.config, { maxTokens: tokens, blockTokens: options.prefixBlockTokens });
    this.prefixCache = cache.capacityBlocks > 0 ? cache : undefined;
  }

  get maxBatch(): number {
    return this.options.maxBatch ?? 32;
  }

  get maxWaiting(): number {
    return this.options.maxWaiting ?? 256;
  }

  /** Sequences that can still be submitted before the queue refuses them (backpressure). */
  get room(): number {
    const inFlight = this.waiting.length + this.running.filter((p) => !p.seq.finishReason).length;
    return Math.max(0, this.maxBatch + this.maxWaiting - inFlight);
  }

  /** Refuses `count` sequences at once when they do not all fit, so a request is taken whole or not at all. */
  assertRoom(count: number): void {
    if (count <= this.room) return;
    this.stats.rejected++;
    throw new QueueFullError(this.waiting.length);
  }

  generate(request: GenerateRequest): Promise<GenerationResult> {
    // Backpressure: at most a full batch running plus maxWaiting queued behind it.
    try {
      this.assertRoom(1);
    } catch (error) {
      return Promise.reject(error);
    }
    // Checked here, not only at the HTTP boundary: one bad row would fail every row of its batch step.
    const vocab = this.model.config.vocabSize;
    if (request.prompt.length === 0 || request.prompt.some((id) => !Number.isInteger(id) || id < 0 || id >= vocab)) {
      return Promise.reject(new RangeError(`a prompt needs at least one token id, each in [0, ${vocab})`));
    }
    const needed = request.constraint?.minTokens ?? 0;
    if (needed > request.params.maxTokens) {
      return Promise.reject(
        new ValidationError(
          `the structured output needs at least ${needed} tokens but max_tokens is ${request.params.maxTokens}`,
        ),
      );
    }
    const seed = request.params.seed ?? randomInt(2 ** 32);
    const seq = new Sequence(
      this.model.config,
      request.prompt,
      request.params,
      createRng(seed),
      this.options.eosTokenIds,
      this.options.decode,
      request.constraint,
    );
    return new Promise<GenerationResult>((resolve, reject) => {
      this.waiting.push({ seq, request, resolve, reject });
      this.stats.queueDepth = this.waiting.length;
      this.loop ??= this.run();
    });
  }

  private async run(): Promise<void> {
    while (this.waiting.length > 0 || this.running.length > 0) {
      const joining = this.admit();
      this.stats.queueDepth = this.waiting.length;
      this.running.push(...joining);
      if (joining.length > 0) await this.advance(joining, true);
      this.running = this.running.filter((p) => !p.seq.finishReason);
      if (this.running.length > 0) await this.advance(this.running, false);
      this.running = this.running.filter((p) => !p.seq.finishReason);
    }
    // Cleared in the same tick as the emptiness check, so a request queued now starts a new loop.
    this.loop = undefined;
  }

  /**
   * Waiting sequences that join now: up to the free batch slots and, beyond the first, within the
   * prefill token budget — a burst of long prompts is spread over several steps, so earlier
   * arrivals get their first token sooner and running sequences keep decoding in between.
   */
  private admit(): Pending[] {
    const budget = this.options.maxPrefillTokens ?? 1024;
    const free = this.maxBatch - this.running.length;
    let count = 0;
    let tokens = 0;
    while (count < free && count < this.waiting.length) {
      const { seq } = this.reusePrefix(this.waiting[count]!);
      const next = seq.prompt.length - seq.cache.length;
      if (count > 0 && tokens + next > budget) break;
      tokens += next;
      count++;
    }
    return this.waiting.splice(0, count);
  }

  /**
   * Seeds a waiting sequence's cache with the longest cached prefix of its prompt, once. The last
   * prompt token is always prefilled (its logits give the first draw), and a request that scores
   * its prompt prefills all of it (it needs logits at every position).
   */
  private reusePrefix(p: Pending): Pending {
    const { seq } = p;
    if (!this.prefixCache || p.request.promptLogprobs !== undefined || seq.prefixLookedUp) return p;
    seq.prefixLookedUp = true;
    const hit = this.prefixCache.lookup(p.request.adapterFeeds, seq.prompt, seq.prompt.length - 1);
    for (const block of hit.blocks) seq.cache.appendBlock(block, this.prefixCache.blockTokens);
    seq.cachedTokens = hit.tokens;
    return p;
  }

  /** Offers what a sequence's cache holds to the prefix cache (its prompt after prefill; prompt and output when it ends). */
  private keepPrefix(p: Pending): void {
    this.prefixCache?.insert(p.request.adapterFeeds, p.seq.history.slice(0, p.seq.cache.length), p.seq.cache);
  }

  /** One cached forward (prefill of prompts past their cached prefix, or one decode token) per adapter group, then a draw for each row. */
  private async advance(group: Pending[], prefill: boolean): Promise<void> {
    for (const p of group) if (p.request.signal?.aborted) this.settle(p, () => p.seq.abort());
    const live = group.filter((p) => !p.seq.finishReason);
    const byAdapter = new Map<Record<string, HostTensor>, Pending[]>();
    for (const p of live) byAdapter.set(p.request.adapterFeeds, [...(byAdapter.get(p.request.adapterFeeds) ?? []), p]);
    for (const [feeds, rows] of byAdapter) {
      const started = performance.now();
      let logits: Float32Array[][];
      try {
        logits = await this.model.step(
          rows.map((p) => this.row(p, prefill)),
          feeds,
        );
      } catch (error) {
        for (const p of rows) this.fail(p, error);
        continue;
      }
      this.stats.recordStep(
        rows.length,
        prefill ? rows.reduce((n, p) => n + p.seq.prompt.length - p.seq.cachedTokens, 0) : rows.length,
        performance.now() - started,
        prefill,
      );
      if (prefill) for (const p of rows) this.keepPrefix(p);
      rows.forEach((p, i) => this.sample(p, logits[i]!, prefill));
    }
  }

  private row(p: Pending, prefill: boolean): StepRow {
    if (!prefill) return { cache: p.seq.cache, tokens: [p.seq.output.at(-1)!] };
    // Only the part of the prompt the prefix cache did not supply (all of it when scoring the prompt).
    const tokens = p.seq.prompt.slice(p.seq.cache.length);
    return {
      cache: p.seq.cache,
      tokens,
      logitsAt: p.request.promptLogprobs !== undefined ? [...tokens.keys()] : [tokens.length - 1],
    };
  }

  private sample(p: Pending, logits: Float32Array[], prefill: boolean): void {
    try {
      const { seq } = p;
      if (prefill && p.request.promptLogprobs !== undefined)
        seq.promptLogprobs = scorePrompt(seq, logits, p.request.promptLogprobs);
      const last = logits.at(-1)!;
      const token = sampleToken(
        last,
        seq.params,
        seq.history,
        seq.rng,
        seq.allowed(last.length),
        this.options.logprobsMode,
        this.options.constrainedLogprobs,
      );
      const textDelta = seq.push(token);
      if (seq.output.length === 1) this.stats.recordFirstToken(seq.firstTokenAt! - seq.createdAt);
      p.request.onToken?.({ token, textDelta });
      if (seq.finishReason) this.settle(p);
    } catch (error) {
      this.fail(p, error);
    }
  }

  private settle(p: Pending, before?: () => void): void {
    before?.();
    this.keepPrefix(p);
    p.resolve(p.seq.result());
  }

  private fail(p: Pending, error: unknown): void {
    p.seq.abort();
    p.reject(error);
  }
}

/**
 * log p(prompt[t] | prompt[<t]) from the prefill's logits at every prompt position, with its rank
 * (1 = most likely): the model's own distribution, whatever the request's temperature (as vLLM).
 */
function scorePrompt(seq: Sequence, logits: Float32Array[], top: number): GenerationResult['promptLogprobs'] {
  return seq.prompt.map((id, t) => {
    if (t === 0) return null;
    const lp = logSoftmax(logits[t - 1]!);
    let rank = 1;
    for (const x of lp) if (x > lp[id]!) rank++;
    return { id, logprob: lp[id]!, rank, top: topLogprobs(lp, top) };
  });
}
