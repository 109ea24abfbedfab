import type { ModelTokenizer } from '../model/tokenizer.js';
import { chatInputChars, renderChat, type ChatPromptOptions, type WireChatMessage } from './chat-prompt.js';
import { BadRequestError } from './http-errors.js';
import type { PrepareThread } from './prepare-thread.js';

/** Inputs up to this many characters (ids, for decoding) are handled on the event loop: a few milliseconds. */
const INLINE_CHARS = 4096;
const INLINE_IDS = 16_384;
/**
 * A normalizer may compose characters before tokenizing (NFC turns up to 3 code units into 1),
 * so the characters-per-token bound is widened by this factor before it refuses anything.
 */
const NORMALIZER_SLACK = 4;

/** What a generation request's prompt is checked against before it is tokenized. */
export interface GenerationBound {
  /** The request field the refusal names. */
  param: string;
}

/**
 * Tokenizing for the server without stalling it. Small inputs are encoded in place; larger ones
 * (the request's total) go to the preparation thread, so /health and small requests keep answering
 * while a multi-megabyte prompt is encoded. Before any of that, a generation prompt longer than
 * any prompt of max_model_len tokens could be (the longest token's characters × max_model_len) is
 * refused outright: its tokens would only be counted to be refused.
 */
export class PromptTokenizer {
  /** Characters past which no prompt can fit the context, whatever it holds. */
  readonly maxPromptChars: number;

  constructor(
    readonly tokenizer: ModelTokenizer,
    private readonly thread: PrepareThread,
    readonly maxModelLen: number,
  ) {
    this.maxPromptChars = maxModelLen * tokenizer.longestTokenChars * NORMALIZER_SLACK;
  }

  /** Token ids of each text; with `bound`, refuses a text too long to be a prompt before encoding it. */
  async encode(texts: readonly string[], options: { addSpecialTokens: boolean; bound?: GenerationBound }): Promise<number[][]> {
    if (options.bound) for (const text of texts) this.assertFits(text.length, options.bound);
    const chars = texts.reduce((n, t) => n + t.length, 0);
    if (chars <= INLINE_CHARS) return texts.map((text) => this.tokenizer.encode(text, { addSpecialTokens: options.addSpecialTokens }));
    const lists = await this.thread.call<Uint32Array[]>({ op: 'encode', texts, addSpecialTokens: options.addSpecialTokens });
    return lists.map((ids) => Array.from(ids));
  }

  /** Token ids of a conversation as the chat template renders it; with `bound`, the rendering is checked before it is encoded. */
  async chat(messages: readonly WireChatMessage[], options: ChatPromptOptions & { bound?: GenerationBound }): Promise<number[]> {
    const { bound, ...render } = options;
    if (chatInputChars(messages) <= INLINE_CHARS) {
      const text = renderChat(this.tokenizer, messages, render);
      if (bound) this.assertFits(text.length, bound);
      return this.tokenizer.encode(text, { addSpecialTokens: render.addSpecialTokens ?? false });
    }
    const reply = await this.thread.call<{ ids?: Uint32Array; chars?: number }>({ op: 'chat', messages, options: render, ...(bound ? { maxChars: this.maxPromptChars } : {}) });
    if (reply.chars !== undefined) this.assertFits(reply.chars, bound!);
    return Array.from(reply.ids!);
  }

  /** Text of token ids, special tokens kept. */
  async decode(ids: readonly number[]): Promise<string> {
    if (ids.length <= INLINE_IDS) return this.tokenizer.decode(ids);
    const packed = Uint32Array.from(ids);
    return this.thread.call<string>({ op: 'decode', ids: packed }, [packed.buffer]);
  }

  private assertFits(chars: number, bound: GenerationBound): void {
    if (chars <= this.maxPromptChars) return;
    throw new BadRequestError(
      `a prompt of ${chars} characters cannot fit this model's context of ${this.maxModelLen} tokens (no prompt longer than ${this.maxPromptChars} characters can); shorten it`,
      bound.param,
    );
  }
}
