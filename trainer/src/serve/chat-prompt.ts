import type { z } from 'zod';
import type { chatMessage } from '@gauntlet/proto/policy';
import type { ChatMessage } from '../model/chat-template.js';
import type { ServeContext } from './context.js';
import { BadRequestError } from './http-errors.js';

/**
 * Wire chat messages rendered by the model's chat template and encoded: what /v1/chat/completions
 * samples from and what /tokenize returns for `messages`, so the two always agree.
 */
export function chatPromptIds(
  ctx: ServeContext,
  messages: readonly z.infer<typeof chatMessage>[],
  options: { addGenerationPrompt: boolean; variables: Record<string, unknown>; addSpecialTokens?: boolean },
): number[] {
  if (!ctx.tokenizer.chatTemplate) throw new BadRequestError('this model has no chat template; use /v1/completions with a prompt', 'messages');
  const rendered: ChatMessage[] = messages.map((m) => ({
    ...m,
    content: typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text).join(''),
  }));
  const text = ctx.tokenizer.applyChatTemplate(rendered, { addGenerationPrompt: options.addGenerationPrompt, variables: options.variables });
  return ctx.tokenizer.encode(text, { addSpecialTokens: options.addSpecialTokens ?? false });
}
