import type { Rng } from '../model/random.js';
import type { TokenConstraint } from './constraint.js';
import { KvCache } from './kv-cache.js';
import type { ModelConfig } from '../model/config.js';
import type { SampledToken, TokenLogprob } from './sampler.js';
import type { SamplingParams } from './sampling-params.js';

export type FinishReason = 'stop' | 'length' | 'abort';

export interface GenerationResult {
  promptTokenIds: number[];
  tokenIds: number[];
  /** log p of each sampled token (see sampler.ts for the exact distribution). */
  logprobs: number[];
  topLogprobs: TokenLogprob[][];
  /** Per prompt token, log p given the tokens before it (null for the first); only when asked. */
  /** Per prompt position (null for the first): the token's logprob, its rank among the vocabulary, and the top alternatives. */
  promptLogprobs?: ((TokenLogprob & { rank: number; top: TokenLogprob[] }) | null)[];
  /** Prompt tokens whose keys and values came from the prefix cache instead of a prefill (vLLM's cached_tokens). */
  cachedTokens: number;
  /** Decoded completion, cut before a matched stop string. */
  text: string;
  finishReason: FinishReason;
  /** Which stop string or stop id ended it, when one did. */
  stopReason?: string | number;
}

export interface TokenEvent {
  token: SampledToken;
  /** Text the token added (empty while a multi-byte character is incomplete, or after a stop). */
  textDelta: string;
}

/** One sequence in flight: its cache, its sampler state, and the stop rules it checks per token. */
export class Sequence {
  readonly cache: KvCache;
  readonly output: number[] = [];
  readonly logprobs: number[] = [];
  readonly topLogprobs: TokenLogprob[][] = [];
  promptLogprobs?: GenerationResult['promptLogprobs'];
  /** Prompt tokens taken from the prefix cache, and whether it was asked (once, when the sequence is first considered). */
  cachedTokens = 0;
  prefixLookedUp = false;
  text = '';
  finishReason?: FinishReason;
  stopReason?: string | number;
  firstTokenAt?: number;
  readonly createdAt = performance.now();

  constructor(
    config: ModelConfig,
    readonly prompt: readonly number[],
    readonly params: SamplingParams,
    readonly rng: Rng,
    readonly eosIds: readonly number[],
    private readonly decode: (ids: readonly number[]) => string,
    readonly constraint?: TokenConstraint,
  ) {
    this.cache = new KvCache(config, prompt.length + Math.min(params.maxTokens, 256));
  }

  get history(): number[] {
    return [...this.prompt, ...this.output];
  }

  /** Tokens that may come next: the constraint's, minus end ids until min_tokens is reached. */
  allowed(vocab: number): Uint8Array | undefined {
    const remaining = this.params.maxTokens - this.output.length;
    const mask = this.constraint?.allowedNext(remaining);
    if (this.output.length >= this.params.minTokens) return mask;
    const out = mask ?? new Uint8Array(vocab).fill(1);
    for (const id of [...this.eosIds, ...this.params.stopTokenIds]) if (id < vocab) out[id] = 0;
    return out;
  }

  /** Records a sampled token and applies the stop rules; returns the text it added. */
  push(token: SampledToken): string {
    this.firstTokenAt ??= performance.now();
    this.output.push(token.id);
    this.logprobs.push(token.logprob);
    this.topLogprobs.push(token.top);
    this.constraint?.advance(token.id);
    const before = this.text;
    if (this.params.stopTokenIds.includes(token.id)) return this.finish('stop', token.id, before);
    if (!this.params.ignoreEos && this.eosIds.includes(token.id)) return this.finish('stop', token.id, before);
    this.text = this.decodeText();
    for (const stop of this.params.stop) {
      const at = this.text.indexOf(stop, Math.max(0, before.length - stop.length));
      if (stop !== '' && at >= 0) {
        this.text = this.text.slice(0, at);
        return this.finish('stop', stop, before);
      }
    }
    if (this.output.length >= this.params.maxTokens) return this.finish('length', undefined, before);
    // A partial UTF-8 character decodes to U+FFFD; hold its text back until it completes.
    return this.text.endsWith('\uFFFD') ? '' : this.text.slice(before.length);
  }

  abort(): void {
    this.finishReason ??= 'abort';
  }

  result(): GenerationResult {
    return {
      promptTokenIds: [...this.prompt],
      tokenIds: [...this.output],
      logprobs: [...this.logprobs],
      topLogprobs: this.topLogprobs.map((t) => [...t]),
      ...(this.promptLogprobs ? { promptLogprobs: this.promptLogprobs } : {}),
      cachedTokens: this.cachedTokens,
      text: this.text,
      finishReason: this.finishReason ?? 'abort',
      ...(this.stopReason !== undefined ? { stopReason: this.stopReason } : {}),
    };
  }

  private decodeText(): string {
    const eos = this.params.ignoreEos ? [] : this.eosIds;
    return this.decode(this.output.filter((id) => !eos.includes(id)));
  }

  private finish(reason: FinishReason, stopReason: string | number | undefined, before: string): string {
    this.finishReason = reason;
    if (stopReason !== undefined) this.stopReason = stopReason;
    if (reason === 'length') this.text = this.decodeText();
    return this.text.startsWith(before) ? this.text.slice(before.length) : '';
  }
}
