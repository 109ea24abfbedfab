import type { IncomingMessage, ServerResponse } from 'node:http';
import { detokenizeRequest, tokenizeChatRequest, tokenizeTextRequest } from '@gauntlet/proto/policy';
import type { ServeContext } from './context.js';
import { BadRequestError } from './http-errors.js';
import { sendJson } from './http-io.js';
import { parseBody } from './parse.js';

/**
 * POST /tokenize, vLLM's shape: `{model?, prompt, add_special_tokens?}` (special tokens added
 * by default) or `{model?, messages, add_generation_prompt?, chat_template_kwargs?}` (rendered
 * by the chat template exactly as /v1/chat/completions renders it) → `{count, max_model_len,
 * tokens}`. Rollout workers build token-exact multi-turn prompts from these ids.
 */
export async function tokenize(ctx: ServeContext, body: unknown, _req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chat = typeof body === 'object' && body !== null && 'messages' in body;
  let tokens: number[];
  let strs: boolean;
  if (chat) {
    const request = parseBody(tokenizeChatRequest, body, 'tokenize');
    ctx.adapters.resolve(request.model);
    if (request.continue_final_message) throw new BadRequestError('continue_final_message is not supported by this server; end the messages with a user turn', 'continue_final_message');
    tokens = await ctx.prompts.chat(request.messages, {
      addGenerationPrompt: request.add_generation_prompt ?? true,
      variables: request.chat_template_kwargs ?? {},
      addSpecialTokens: request.add_special_tokens ?? false,
    });
    strs = request.return_token_strs ?? false;
  } else {
    const request = parseBody(tokenizeTextRequest, body, 'tokenize');
    ctx.adapters.resolve(request.model);
    [tokens] = (await ctx.prompts.encode([request.prompt], { addSpecialTokens: request.add_special_tokens ?? true })) as [number[]];
    strs = request.return_token_strs ?? false;
  }
  sendJson(res, 200, {
    count: tokens.length,
    max_model_len: ctx.limits.maxModelLen,
    tokens,
    ...(strs ? { token_strs: tokens.map((id) => ctx.tokenizer.idToToken(id) ?? '') } : {}),
  });
}

/** POST /detokenize: `{model?, tokens}` → `{prompt}` (special tokens kept, as vLLM decodes). */
export async function detokenize(ctx: ServeContext, body: unknown, _req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = parseBody(detokenizeRequest, body, 'detokenize');
  ctx.adapters.resolve(request.model);
  const bad = request.tokens.findIndex((id) => id >= ctx.config.vocabSize);
  if (bad >= 0) throw new BadRequestError(`tokens[${bad}] = ${request.tokens[bad]} is outside the vocabulary [0, ${ctx.config.vocabSize})`, 'tokens');
  sendJson(res, 200, { prompt: await ctx.prompts.decode(request.tokens) });
}
