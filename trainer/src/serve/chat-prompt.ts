import type { z } from 'zod';
import type { chatMessage } from '@gauntlet/proto/policy-server';
import type { TemplateMessage } from '../model/chat-template.js';
import type { ModelTokenizer } from '../model/tokenizer.js';
import { BadRequestError } from './http-errors.js';

export type WireChatMessage = z.infer<typeof chatMessage>;

export interface ChatPromptOptions {
  addGenerationPrompt: boolean;
  variables: Record<string, unknown>;
  /** Special tokens around the rendered text (vLLM: false for messages unless asked). */
  addSpecialTokens?: boolean;
}

/**
 * Wire chat messages rendered by the model's chat template: what /v1/chat/completions samples
 * from and what /tokenize returns for `messages`, so the two always agree. Pure, so the tokenizer
 * thread renders large conversations with the very same code.
 */
export function renderChat(
  tokenizer: ModelTokenizer,
  messages: readonly WireChatMessage[],
  options: ChatPromptOptions,
): string {
  if (!tokenizer.chatTemplate)
    throw new BadRequestError('this model has no chat template; use /v1/completions with a prompt', 'messages');
  const rendered: TemplateMessage[] = messages.map((m) => ({
    ...m,
    content: typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text).join(''),
  }));
  return tokenizer.applyChatTemplate(rendered, {
    addGenerationPrompt: options.addGenerationPrompt,
    variables: options.variables,
  });
}

/** Characters a conversation brings to its rendering (content, plus room for each message's template text). */
export function chatInputChars(messages: readonly WireChatMessage[]): number {
  return messages.reduce(
    (n, m) =>
      n +
      64 +
      (typeof m.content === 'string'
        ? m.content.length
        : (m.content ?? []).reduce((k, part) => k + part.text.length, 0)),
    0,
  );
}
