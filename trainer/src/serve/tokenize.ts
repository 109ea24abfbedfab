import type { IncomingMessage, ServerResponse } from 'node:http';
import { detokenizeRequest, tokenizeChatRequest, tokenizeTextRequest } from '@gauntlet/proto/policy-server';
import type { ServeContext } from './context.js';
import { BadRequestError } from './http-errors.js';
import { sendJson, sendJsonText } from './http-io.js';
import type { TokenizeReplyParts } from './prompt-tokenizer.js';
import { parseBody } from './parse.js';

/**
 * POST /tokenize, vLLM's shape: `{model?, prompt, add_special_tokens?}` (special tokens added
 * by default) or `{model?, messages, add_generation_prompt?, chat_template_kwargs?}` (rendered
 * by the chat template exactly as /v1/chat/completions renders it) → `{count, max_model_len,
 * tokens}`. Rollout workers build token-exact multi-turn prompts from these ids.
 */
export async function tokenize(
  ctx: ServeContext,
  body: unknown,
  _req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const chat = typeof body === 'object' && body !== null && 'messages' in body;
  let parts: TokenizeReplyParts;
  if (chat) {
    const request = parseBody(tokenizeChatRequest, body, 'tokenize');
    ctx.adapters.resolve(request.model);
    if (request.continue_final_message)
      throw new BadRequestError(
        'continue_final_message is not supported by this server; end the messages with a user turn',
        'continue_final_message',
      );
    const render = {
      addGenerationPrompt: request.add_generation_prompt ?? true,
      variables: request.chat_template_kwargs ?? {},
      addSpecialTokens: request.add_special_tokens ?? false,
    };
    parts = await ctx.prompts.tokenizeReply(
      { messages: request.messages, render },
      { addSpecialTokens: render.addSpecialTokens, strs: request.return_token_strs ?? false },
    );
  } else {
    const request = parseBody(tokenizeTextRequest, body, 'tokenize');
    ctx.adapters.resolve(request.model);
    parts = await ctx.prompts.tokenizeReply(
      { text: request.prompt },
      { addSpecialTokens: request.add_special_tokens ?? true, strs: request.return_token_strs ?? false },
    );
  }
  // Put together from JSON text: a list of millions of ids is serialised by the thread that made it.
  sendJsonText(
    res,
    200,
    `{"count":${parts.count},"max_model_len":${ctx.limits.maxModelLen},"tokens":${parts.tokens}${parts.strs === undefined ? '' : `,"token_strs":${parts.strs}`}}`,
  );
}

/** POST /detokenize: `{model?, tokens}` → `{prompt}` (special tokens kept, as vLLM decodes). */
export async function detokenize(
  ctx: ServeContext,
  body: unknown,
  _req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const request = parseBody(detokenizeRequest, body, 'detokenize');
  ctx.adapters.resolve(request.model);
  const bad = request.tokens.findIndex((id) => id >= ctx.config.vocabSize);
  if (bad >= 0)
    throw new BadRequestError(
      `tokens[${bad}] = ${request.tokens[bad]} is outside the vocabulary [0, ${ctx.config.vocabSize})`,
      'tokens',
    );
  sendJson(res, 200, { prompt: await ctx.prompts.decode(request.tokens) });
}
