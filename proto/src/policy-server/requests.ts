import { z } from 'zod';

/**
 * Request bodies of the vLLM/OpenAI and TRL endpoints. Objects are loose: clients (the openai
 * package, TRL) send fields we do not use, and vLLM accepts them too. Field names are the wire's.
 */
const int = z.number().int();
const tokenIds = z.array(int.min(0));

/** Where clients put structured-output specs: vLLM's current and older fields, and OpenAI's response_format. */
function structuredFields() {
  const jsonSchema = z.union([z.record(z.string(), z.unknown()), z.boolean()]);
  return {
    structured_outputs: z
      .looseObject({
        regex: z.string().nullish(),
        choice: z.array(z.string()).min(1).nullish(),
        json: z.union([jsonSchema, z.string()]).nullish().transform(parseJsonText),
        grammar: z.string().nullish(),
      })
      .nullish(),
    response_format: z
      .discriminatedUnion('type', [
        z.looseObject({ type: z.literal('text') }),
        z.looseObject({ type: z.literal('json_object') }),
        z.looseObject({
          type: z.literal('json_schema'),
          json_schema: z.looseObject({ name: z.string().nullish(), schema: jsonSchema.nullish() }),
        }),
      ])
      .nullish(),
    guided_regex: z.string().nullish(),
    guided_choice: z.array(z.string()).min(1).nullish(),
    guided_json: z.union([jsonSchema, z.string()]).nullish().transform(parseJsonText),
    guided_grammar: z.string().nullish(),
  };
}

/** vLLM takes a JSON schema as an object or as its JSON text. */
function parseJsonText(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'a JSON schema given as text must parse as JSON' });
    return z.NEVER;
  }
}

export type WireStructured = z.infer<z.ZodObject<ReturnType<typeof structuredFields>>>;

const samplingFields = {
  max_tokens: int.min(0).nullish(),
  n: int.min(1).nullish(),
  seed: int.min(0).nullish(),
  temperature: z.number().min(0).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  top_k: int.min(-1).nullish(),
  min_p: z.number().min(0).max(1).nullish(),
  repetition_penalty: z.number().gt(0).nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  stop_token_ids: tokenIds.nullish(),
  ignore_eos: z.boolean().nullish(),
  min_tokens: int.min(0).nullish(),
  ...structuredFields(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  return_token_ids: z.boolean().nullish(),
  /** vLLM's: name tokens `token_id:N` in logprob lists, so byte tokens that decode alike stay apart. */
  return_tokens_as_token_ids: z.boolean().nullish(),
};

export const completionRequest = z.looseObject({
  model: z.string().nullish(),
  prompt: z.union([z.string(), z.array(z.string()).min(1), tokenIds.min(1), z.array(tokenIds.min(1)).min(1)]),
  echo: z.boolean().nullish(),
  logprobs: int.min(0).max(20).nullish(),
  /** vLLM's: per prompt token its logprob, rank and this many alternatives. */
  prompt_logprobs: int.min(0).max(20).nullish(),
  ...samplingFields,
});
export type CompletionRequest = z.infer<typeof completionRequest>;

const contentPart = z.looseObject({ type: z.literal('text'), text: z.string() });
export const chatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
});

export const chatRequest = z.looseObject({
  model: z.string().nullish(),
  messages: z.array(chatMessage).min(1),
  logprobs: z.boolean().nullish(),
  top_logprobs: int.min(0).max(20).nullish(),
  max_completion_tokens: int.min(0).nullish(),
  add_generation_prompt: z.boolean().nullish(),
  chat_template_kwargs: z.record(z.string(), z.unknown()).nullish(),
  ...samplingFields,
});
export type ChatRequest = z.infer<typeof chatRequest>;

/**
 * TRL's /generate/ `generation_kwargs`: vLLM SamplingParams fields that override the named ones.
 * The ones this server uses are checked as strictly as the named fields; others pass unread.
 */
export const generationKwargs = z.looseObject({
  max_tokens: samplingFields.max_tokens,
  seed: samplingFields.seed,
  temperature: samplingFields.temperature,
  top_p: samplingFields.top_p,
  top_k: samplingFields.top_k,
  min_p: samplingFields.min_p,
  repetition_penalty: samplingFields.repetition_penalty,
  stop: samplingFields.stop,
  stop_token_ids: samplingFields.stop_token_ids,
  ignore_eos: samplingFields.ignore_eos,
  min_tokens: samplingFields.min_tokens,
  logprobs: int.min(0).max(20).nullish(),
});

/** TRL's `trl vllm-serve` /generate/ body. */
export const trlGenerateRequest = z.looseObject({
  prompts: z.union([z.array(z.string()).min(1), z.array(tokenIds.min(1)).min(1)]),
  n: int.min(1).nullish(),
  repetition_penalty: z.number().gt(0).nullish(),
  temperature: z.number().min(0).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  top_k: int.min(-1).nullish(),
  min_p: z.number().min(0).max(1).nullish(),
  max_tokens: int.min(0).nullish(),
  logprobs: int.min(0).max(20).nullish(),
  structured_outputs_regex: z.string().nullish(),
  /** The name older TRL releases send. */
  guided_decoding_regex: z.string().nullish(),
  generation_kwargs: z.record(z.string(), z.unknown()).nullish(),
});
export type TrlGenerateRequest = z.infer<typeof trlGenerateRequest>;

/** vLLM's POST /tokenize, text form: BOS and the like are added unless add_special_tokens is false. */
export const tokenizeTextRequest = z.looseObject({
  model: z.string().nullish(),
  prompt: z.string(),
  add_special_tokens: z.boolean().nullish(),
  return_token_strs: z.boolean().nullish(),
});

/** vLLM's POST /tokenize, chat form: the messages rendered by the chat template (no extra special tokens by default). */
export const tokenizeChatRequest = z.looseObject({
  model: z.string().nullish(),
  messages: z.array(chatMessage).min(1),
  add_generation_prompt: z.boolean().nullish(),
  continue_final_message: z.boolean().nullish(),
  add_special_tokens: z.boolean().nullish(),
  chat_template_kwargs: z.record(z.string(), z.unknown()).nullish(),
  return_token_strs: z.boolean().nullish(),
});

/** Either form; a body with `messages` is the chat form (as vLLM tells them apart). */
export const tokenizeRequest = z.union([tokenizeChatRequest, tokenizeTextRequest]);
export type TokenizeRequest = z.infer<typeof tokenizeRequest>;

export const detokenizeRequest = z.looseObject({ model: z.string().nullish(), tokens: tokenIds });
export type DetokenizeRequest = z.infer<typeof detokenizeRequest>;

export const loadLoraRequest = z.looseObject({
  lora_name: z.string().min(1),
  lora_path: z.string().min(1),
  load_inplace: z.boolean().nullish(),
});
export type LoadLoraRequest = z.infer<typeof loadLoraRequest>;
export const unloadLoraRequest = z.looseObject({ lora_name: z.string().min(1) });

/** What a caller may send (before the schemas fill in defaults). */
export type CompletionInput = z.input<typeof completionRequest>;
export type ChatInput = z.input<typeof chatRequest>;
export type TokenizeInput = z.input<typeof tokenizeTextRequest> | z.input<typeof tokenizeChatRequest>;
export type DetokenizeInput = z.input<typeof detokenizeRequest>;
