import type { z } from 'zod';
import { DEFAULT_RETRY, type RetryPolicy } from '../client/retry.js';
import type { CallOptions } from '../client/types.js';
import { parseOrThrow } from '../wire/validate.js';
import { exchange, type Exchange, type HttpSettings } from './http.js';
import {
  chatReply,
  completionReply,
  detokenizeReply,
  modelsReply,
  tokenizeReply,
  type ChatReply,
  type CompletionReply,
  type DetokenizeReply,
  type ModelsReply,
  type TokenizeReply,
} from './replies.js';
import {
  chatRequest,
  completionRequest,
  detokenizeRequest,
  tokenizeChatRequest,
  tokenizeTextRequest,
  type ChatInput,
  type CompletionInput,
  type DetokenizeInput,
  type TokenizeInput,
} from './requests.js';
import { generationFrom, generationRequest, type Generation, type GenerationRequest } from './generation.js';

export interface PolicyClientOptions {
  /** Sent as `Authorization: Bearer …` (vLLM's --api-key). */
  apiKey?: string;
  /** Deadline of each call in ms, retries included (default 120 000). */
  timeoutMs?: number;
  /** Backoff for connection errors and 5xx (default 5 tries, 100 ms doubling to 2 s). */
  retry?: Partial<Omit<RetryPolicy, 'retryOnCapacity'>>;
  /** Check every reply against its schema (default true; replies are small next to a generation). */
  validateReplies?: boolean;
}

/**
 * A client for a vLLM-compatible policy server: our `gauntlet-trainer serve` or a stock `vllm
 * serve` (same paths, same field names). Every call takes a deadline and an AbortSignal; requests
 * are checked before they leave (ValidationError), connection errors and 5xx are retried with
 * backoff (PolicyUnavailableError once out of tries), 4xx fail at once (PolicyRequestError) and
 * replies are checked against their schema (PolicyReplyError).
 */
export class PolicyClient {
  /** The server's root URL (a trailing `/v1` given by the caller is dropped: /tokenize lives at the root). */
  readonly baseUrl: string;
  private readonly http: HttpSettings;

  constructor(baseUrl: string, options: PolicyClientOptions = {}) {
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      throw new TypeError(`policy server URL ${JSON.stringify(baseUrl)} is not a URL (e.g. http://127.0.0.1:8001)`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new TypeError(`policy server URL ${JSON.stringify(baseUrl)} must be http:// or https://`);
    this.baseUrl = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
    this.http = {
      base: this.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 120_000,
      retry: { ...DEFAULT_RETRY, ...options.retry, retryOnCapacity: false },
      validateReplies: options.validateReplies ?? true,
    };
  }

  /** POST /v1/completions (not streamed): token-id prompts, logprobs, return_token_ids, seeds, structured outputs. */
  completions(body: CompletionInput, options: CallOptions = {}): Promise<CompletionReply> {
    return this.post(
      '/v1/completions',
      'completion',
      completionRequest,
      { ...body, stream: false },
      completionReply,
      options,
    );
  }

  /** POST /v1/chat/completions (not streamed). */
  chatCompletions(body: ChatInput, options: CallOptions = {}): Promise<ChatReply> {
    return this.post(
      '/v1/chat/completions',
      'chat completion',
      chatRequest,
      { ...body, stream: false },
      chatReply,
      options,
    );
  }

  /** POST /tokenize: `{prompt}` or `{messages, add_generation_prompt}` → token ids. */
  tokenize(body: TokenizeInput, options: CallOptions = {}): Promise<TokenizeReply> {
    const schema = 'messages' in body ? tokenizeChatRequest : tokenizeTextRequest;
    return this.post('/tokenize', 'tokenize', schema, body, tokenizeReply, options);
  }

  /** POST /detokenize: token ids → text. */
  detokenize(body: DetokenizeInput, options: CallOptions = {}): Promise<DetokenizeReply> {
    return this.post('/detokenize', 'detokenize', detokenizeRequest, body, detokenizeReply, options);
  }

  /** GET /v1/models: the base model and the LoRA adapters loaded (parent = the base). */
  models(options: CallOptions = {}): Promise<ModelsReply> {
    return this.send({ method: 'GET', path: '/v1/models', what: 'models', reply: modelsReply, ...options });
  }

  /**
   * One sampled continuation of a token-id prompt with its token ids and sampled logprobs: what a
   * rollout turn needs. Every sampling field is sent explicitly (server defaults differ).
   */
  async generate(request: GenerationRequest, options: CallOptions = {}): Promise<Generation> {
    const reply = await this.completions(generationRequest(request), options);
    return generationFrom(reply, this.baseUrl);
  }

  private async post<S extends z.ZodType>(
    path: string,
    what: string,
    schema: z.ZodType,
    body: unknown,
    reply: S,
    options: CallOptions,
  ): Promise<z.infer<S>> {
    parseOrThrow(schema, body);
    return this.send({ method: 'POST', path, what, body, reply, ...options });
  }

  private send<S extends z.ZodType>(request: Exchange<S>): Promise<z.infer<S>> {
    return exchange(this.http, request);
  }
}
