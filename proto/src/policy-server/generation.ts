import { PolicyReplyError } from './errors.js';
import type { CompletionReply } from './replies.js';
import type { CompletionInput } from './requests.js';

/** One turn's sampling request: a token-id prompt and explicit sampling settings. */
export interface GenerationRequest {
  /** The served name: the base model or a LoRA adapter. Absent: the server's default model. */
  model?: string | undefined;
  promptIds: readonly number[];
  maxTokens: number;
  temperature?: number;
  topP?: number;
  /** -1 (or absent) = off. */
  topK?: number;
  minP?: number;
  seed?: number | undefined;
  stop?: readonly string[];
  stopTokenIds?: readonly number[];
  /** Constrain the output to a full match of this regex (vLLM's structured_outputs.regex). */
  regex?: string | undefined;
}

/** What came back: the sampled ids (EOS included when the model stopped on it) and their logprobs. */
export interface Generation {
  /** The model the server says answered (the base or the adapter's name). */
  model: string;
  text: string;
  tokenIds: number[];
  /** The sampler's logprob of each sampled token; same length as tokenIds. */
  logprobs: number[];
  finishReason: string;
}

export function generationRequest(request: GenerationRequest): CompletionInput {
  return {
    ...(request.model === undefined ? {} : { model: request.model }),
    prompt: [...request.promptIds],
    n: 1,
    max_tokens: request.maxTokens,
    temperature: request.temperature ?? 1,
    top_p: request.topP ?? 1,
    top_k: request.topK ?? -1,
    min_p: request.minP ?? 0,
    ...(request.seed === undefined ? {} : { seed: request.seed }),
    stop: [...(request.stop ?? [])],
    stop_token_ids: [...(request.stopTokenIds ?? [])],
    // 1, not 0: some vLLM releases treat logprobs=0 as "none"; the sampled token's logprob is in token_logprobs either way.
    logprobs: 1,
    return_token_ids: true,
    ...(request.regex === undefined ? {} : { structured_outputs: { regex: request.regex } }),
  };
}

export function generationFrom(reply: CompletionReply, server: string): Generation {
  const choice = reply.choices[0];
  if (!choice) throw new PolicyReplyError(`policy server ${server} returned no choices`);
  const ids = choice.token_ids;
  if (!ids)
    throw new PolicyReplyError(
      `policy server ${server} returned no token_ids: it must support return_token_ids (vLLM ≥ 0.10.2 or gauntlet-trainer serve)`,
    );
  const logprobs = choice.logprobs?.token_logprobs;
  if (!logprobs || logprobs.length !== ids.length || logprobs.some((lp) => lp === null)) {
    throw new PolicyReplyError(
      `policy server ${server} returned ${logprobs?.length ?? 'no'} logprobs for ${ids.length} sampled tokens`,
    );
  }
  return {
    model: reply.model,
    text: choice.text,
    tokenIds: ids,
    logprobs: logprobs as number[],
    finishReason: choice.finish_reason ?? 'abort',
  };
}
