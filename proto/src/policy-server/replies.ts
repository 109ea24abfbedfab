import { z } from 'zod';

/**
 * Reply bodies of the vLLM/OpenAI and TRL endpoints, as vLLM's OpenAI-compatible server writes
 * them. Loose objects: servers add fields (system_fingerprint, kv_transfer_params, …) that a
 * client must ignore, not reject. What a rollout relies on (token ids, sampled logprobs) is typed.
 */
const int = z.number().int();
const tokenIds = z.array(int.min(0));

export const usage = z.looseObject({
  prompt_tokens: int.min(0),
  completion_tokens: int.min(0).nullish(),
  total_tokens: int.min(0),
});

/** The legacy completions logprobs block; token_logprobs is null for an echoed first prompt token. */
export const completionLogprobs = z.looseObject({
  tokens: z.array(z.string()),
  token_logprobs: z.array(z.number().nullable()),
  top_logprobs: z.array(z.record(z.string(), z.number()).nullable()).nullish(),
  text_offset: z.array(int).nullish(),
});

export const completionChoice = z.looseObject({
  index: int.min(0),
  text: z.string(),
  logprobs: completionLogprobs.nullish(),
  /** "stop", "length", or "abort"; null only while streaming. */
  finish_reason: z.string().nullable(),
  stop_reason: z.union([z.string(), int]).nullish(),
  /** With return_token_ids: the sampled ids (EOS included when the model stopped on it). */
  token_ids: tokenIds.nullish(),
  prompt_token_ids: tokenIds.nullish(),
  prompt_logprobs: z.array(z.record(z.string(), z.looseObject({ logprob: z.number() })).nullable()).nullish(),
});
export type CompletionChoice = z.infer<typeof completionChoice>;

export const completionReply = z.looseObject({
  id: z.string(),
  object: z.literal('text_completion'),
  created: int,
  model: z.string(),
  choices: z.array(completionChoice),
  usage: usage.nullish(),
});
export type CompletionReply = z.infer<typeof completionReply>;

const chatTokenLogprob = z.looseObject({ token: z.string(), logprob: z.number(), bytes: z.array(int).nullish() });

export const chatChoice = z.looseObject({
  index: int.min(0),
  message: z.looseObject({ role: z.string(), content: z.string().nullable() }),
  logprobs: z
    .looseObject({ content: z.array(chatTokenLogprob.extend({ top_logprobs: z.array(chatTokenLogprob) })).nullable() })
    .nullish(),
  finish_reason: z.string().nullable(),
  stop_reason: z.union([z.string(), int]).nullish(),
  token_ids: tokenIds.nullish(),
});

export const chatReply = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: int,
  model: z.string(),
  choices: z.array(chatChoice),
  usage: usage.nullish(),
  prompt_token_ids: tokenIds.nullish(),
});
export type ChatReply = z.infer<typeof chatReply>;

export const modelCard = z.looseObject({
  id: z.string(),
  object: z.literal('model'),
  created: int,
  owned_by: z.string(),
  root: z.string().nullish(),
  /** The base model's id for a LoRA adapter; null for a base model. */
  parent: z.string().nullish(),
  max_model_len: int.nullish(),
});
export type ModelCard = z.infer<typeof modelCard>;

export const modelsReply = z.looseObject({ object: z.literal('list'), data: z.array(modelCard) });
export type ModelsReply = z.infer<typeof modelsReply>;

export const tokenizeReply = z.looseObject({
  count: int.min(0),
  max_model_len: int.min(0),
  tokens: tokenIds,
  token_strs: z.array(z.string()).nullish(),
});
export type TokenizeReply = z.infer<typeof tokenizeReply>;

export const detokenizeReply = z.looseObject({ prompt: z.string() });
export type DetokenizeReply = z.infer<typeof detokenizeReply>;

/** TRL's `trl vllm-serve` /generate/ reply: per sequence, per token, the sampled id first then alternatives. */
export const trlGenerateReply = z.looseObject({
  prompt_ids: z.array(tokenIds),
  completion_ids: z.array(tokenIds),
  logprobs: z.array(z.array(z.array(z.number()))).nullish(),
  logprob_token_ids: z.array(z.array(z.array(int))).nullish(),
});
export type TrlGenerateReply = z.infer<typeof trlGenerateReply>;

/**
 * An error reply: OpenAI's (and current vLLM's) `{error: {message, type, param, code}}`, or older
 * vLLM's flat `{object: "error", message, type, code}`.
 */
export const errorReply = z.union([
  z.looseObject({
    error: z.looseObject({
      message: z.string(),
      type: z.string().nullish(),
      param: z.string().nullish(),
      code: z.union([int, z.string()]).nullish(),
    }),
  }),
  z.looseObject({ message: z.string(), type: z.string().nullish(), code: z.union([int, z.string()]).nullish() }),
]);
export type ErrorReply = z.infer<typeof errorReply>;
