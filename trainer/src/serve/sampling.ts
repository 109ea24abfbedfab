import { samplingParams, type SamplingParams } from '../generate/sampling-params.js';
import type { ServeContext } from './context.js';
import { BadRequestError } from './http-errors.js';

/** The sampling fields every endpoint shares, in wire names. */
export interface WireSampling {
  max_tokens?: number | null | undefined;
  n?: number | null | undefined;
  seed?: number | null | undefined;
  temperature?: number | null | undefined;
  top_p?: number | null | undefined;
  top_k?: number | null | undefined;
  min_p?: number | null | undefined;
  repetition_penalty?: number | null | undefined;
  stop?: string | string[] | null | undefined;
  stop_token_ids?: number[] | null | undefined;
  ignore_eos?: boolean | null | undefined;
  min_tokens?: number | null | undefined;
}

/** Wire fields → SamplingParams, with vLLM's defaults for absent ones (max_tokens 16 for completions). */
export function toSamplingParams(
  body: WireSampling,
  defaults: { maxTokens: number; topLogprobs: number },
): SamplingParams {
  return samplingParams({
    temperature: body.temperature ?? 1,
    topP: body.top_p ?? 1,
    topK: body.top_k === -1 || body.top_k === undefined || body.top_k === null ? 0 : body.top_k,
    minP: body.min_p ?? 0,
    repetitionPenalty: body.repetition_penalty ?? 1,
    seed: body.seed ?? undefined,
    maxTokens: body.max_tokens ?? defaults.maxTokens,
    minTokens: body.min_tokens ?? 0,
    stop: body.stop === undefined || body.stop === null ? [] : typeof body.stop === 'string' ? [body.stop] : body.stop,
    stopTokenIds: body.stop_token_ids ?? [],
    ignoreEos: body.ignore_eos ?? false,
    topLogprobs: defaults.topLogprobs,
  });
}

/** Refuses requests over the server's limits, before any work is queued. */
export function checkLimits(
  ctx: ServeContext,
  prompts: readonly (readonly number[])[],
  params: SamplingParams,
  n: number,
): void {
  const { limits, config, engine } = ctx;
  if (prompts.length > limits.maxPrompts)
    throw new BadRequestError(`${prompts.length} prompts in one request; the limit is ${limits.maxPrompts}`, 'prompt');
  if (n > limits.maxN) throw new BadRequestError(`n = ${n} is over this server's limit of ${limits.maxN}`, 'n');
  // Refused whole or taken whole: a request bigger than the whole queue would get a 503 forever.
  const capacity = engine.maxBatch + engine.maxWaiting;
  if (prompts.length * n > capacity) {
    throw new BadRequestError(
      `this request needs ${prompts.length * n} sequences at once (${prompts.length} prompts × n = ${n}), but this server holds at most ${capacity} (--max-batch + --max-waiting); send fewer prompts or a smaller n`,
      'n',
    );
  }
  if (params.maxTokens < 1)
    throw new BadRequestError(`max_tokens must be at least 1, got ${params.maxTokens}`, 'max_tokens');
  if (params.maxTokens > limits.maxTokens)
    throw new BadRequestError(
      `max_tokens = ${params.maxTokens} is over this server's limit of ${limits.maxTokens}`,
      'max_tokens',
    );
  if (params.minTokens > params.maxTokens)
    throw new BadRequestError(
      `min_tokens (${params.minTokens}) must not exceed max_tokens (${params.maxTokens})`,
      'min_tokens',
    );
  for (const prompt of prompts) {
    if (prompt.length === 0) throw new BadRequestError('a prompt encodes to no tokens; send at least one', 'prompt');
    const bad = prompt.find((id) => id >= config.vocabSize);
    if (bad !== undefined)
      throw new BadRequestError(`token id ${bad} is outside the vocabulary [0, ${config.vocabSize})`, 'prompt');
    if (prompt.length + params.maxTokens > limits.maxModelLen) {
      throw new BadRequestError(
        `This model's maximum context length is ${limits.maxModelLen} tokens. However, you requested ${prompt.length + params.maxTokens} tokens (${prompt.length} in the messages, ${params.maxTokens} in the completion). Please reduce the length of the messages or completion.`,
        'max_tokens',
      );
    }
  }
  const badStop = params.stopTokenIds.find((id) => id >= config.vocabSize);
  if (badStop !== undefined)
    throw new BadRequestError(`stop_token_ids: ${badStop} is outside the vocabulary`, 'stop_token_ids');
}

/** Seeds for the n samples of one prompt: seed, seed+1, … (wrapping past the largest safe integer) so they differ yet repeat. */
export function seedFor(params: SamplingParams, index: number): SamplingParams {
  if (params.seed === undefined) return params;
  const headroom = Number.MAX_SAFE_INTEGER - params.seed;
  return { ...params, seed: index > headroom ? index - headroom - 1 : params.seed + index };
}
