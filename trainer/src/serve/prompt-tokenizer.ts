import type { ModelTokenizer } from '../model/tokenizer.js';
import { chatInputChars, renderChat, type ChatPromptOptions, type WireChatMessage } from './chat-prompt.js';
import { BadRequestError } from './http-errors.js';
import type { PreparePool } from './prepare-pool.js';

/** Inputs up to this many characters (ids, for decoding) are handled on the event loop: a few milliseconds. */
const INLINE_CHARS = 4096;
const INLINE_IDS = 16_384;
/**
 * A normalizer may compose characters before tokenizing (NFC turns up to 3 code units into 1),
 * so the characters-per-token bound is widened by this factor before it refuses anything.
 */
const NORMALIZER_SLACK = 4;

/** /tokenize's reply in parts: the count, and the ids (and token strings, when asked) as JSON text. */
export interface TokenizeReplyParts {
  count: number;
  tokens: string;
  strs?: string;
}

/** The same parts computed here: used inline for small inputs and by the preparation thread for large ones. */
export function tokenizeReplyParts(
  tokenizer: ModelTokenizer,
  input: { text: string } | { messages: readonly WireChatMessage[]; render: ChatPromptOptions },
  options: { addSpecialTokens: boolean; strs: boolean },
): TokenizeReplyParts {
  const text = 'text' in input ? input.text : renderChat(tokenizer, input.messages, input.render);
  const ids = tokenizer.encode(text, { addSpecialTokens: options.addSpecialTokens });
  return {
    count: ids.length,
    tokens: JSON.stringify(ids),
    ...(options.strs ? { strs: JSON.stringify(ids.map((id) => tokenizer.idToToken(id) ?? '')) } : {}),
  };
}

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
  /** Characters a /tokenize input may have: encoding 7 MB took 15–22 s of a thread, to count tokens no prompt could use. */
  readonly maxTokenizeChars: number;

  constructor(
    readonly tokenizer: ModelTokenizer,
    private readonly thread: PreparePool,
    readonly maxModelLen: number,
    maxTokenizeChars?: number,
  ) {
    this.maxPromptChars = maxModelLen * tokenizer.longestTokenChars * NORMALIZER_SLACK;
    this.maxTokenizeChars = maxTokenizeChars ?? this.maxPromptChars;
  }

  /** Token ids of each generation prompt; a text too long to be a prompt is refused before it is encoded. */
  async encode(
    texts: readonly string[],
    options: { addSpecialTokens: boolean; bound: GenerationBound },
  ): Promise<number[][]> {
    for (const text of texts) this.assertFits(text.length, options.bound);
    const chars = texts.reduce((n, t) => n + t.length, 0);
    if (chars <= INLINE_CHARS)
      return texts.map((text) => this.tokenizer.encode(text, { addSpecialTokens: options.addSpecialTokens }));
    const lists = await this.thread.call<Uint32Array[]>({
      op: 'encode',
      texts,
      addSpecialTokens: options.addSpecialTokens,
    });
    return lists.map((ids) => this.promptIds(ids, options.bound));
  }

  /** Token ids of a conversation as the chat template renders it, for generation: the rendering is checked before it is encoded. */
  async chat(
    messages: readonly WireChatMessage[],
    options: ChatPromptOptions & { bound: GenerationBound },
  ): Promise<number[]> {
    const { bound, ...render } = options;
    if (chatInputChars(messages) <= INLINE_CHARS) {
      const text = renderChat(this.tokenizer, messages, render);
      this.assertFits(text.length, bound);
      return this.tokenizer.encode(text, { addSpecialTokens: render.addSpecialTokens ?? false });
    }
    const reply = await this.thread.call<{ ids?: Uint32Array; chars?: number }>({
      op: 'chat',
      messages,
      options: render,
      maxChars: this.maxPromptChars,
    });
    if (reply.chars !== undefined) this.assertFits(reply.chars, bound);
    return this.promptIds(reply.ids!, bound);
  }

  /**
   * /tokenize's answer for a text or a conversation up to maxTokenizeChars: the count and the ids (and
   * their vocabulary strings) as JSON text, which the thread writes for a large input, so a list of
   * millions of ids is never built and serialised on the event loop.
   */
  async tokenizeReply(
    input: { text: string } | { messages: readonly WireChatMessage[]; render: ChatPromptOptions },
    options: { addSpecialTokens: boolean; strs: boolean },
  ): Promise<TokenizeReplyParts> {
    const chars = 'text' in input ? input.text.length : chatInputChars(input.messages);
    if (chars > this.maxTokenizeChars)
      throw new BadRequestError(
        `an input of ${chars} characters is over this server's /tokenize limit of ${this.maxTokenizeChars} (--max-tokenize-chars; by default what any prompt of max_model_len ${this.maxModelLen} tokens may have); send a shorter one`,
        'text' in input ? 'prompt' : 'messages',
      );
    if (chars > INLINE_CHARS) return this.thread.call<TokenizeReplyParts>({ op: 'tokenize', input, ...options });
    return tokenizeReplyParts(this.tokenizer, input, options);
  }

  /** Text of token ids, special tokens kept. */
  async decode(ids: readonly number[]): Promise<string> {
    if (ids.length <= INLINE_IDS) return this.tokenizer.decode(ids);
    const packed = Uint32Array.from(ids);
    return this.thread.call<string>({ op: 'decode', ids: packed }, [packed.buffer]);
  }

  /** A thread's list as a prompt: refused, not copied, when it alone overflows the context. */
  private promptIds(ids: Uint32Array, bound: GenerationBound): number[] {
    if (ids.length > this.maxModelLen) {
      throw new BadRequestError(
        `This model's maximum context length is ${this.maxModelLen} tokens. However, the prompt alone has ${ids.length} tokens. Please reduce its length.`,
        bound.param,
      );
    }
    const out = new Array<number>(ids.length);
    for (let i = 0; i < ids.length; i++) out[i] = ids[i]!;
    return out;
  }

  private assertFits(chars: number, bound: GenerationBound): void {
    if (chars <= this.maxPromptChars) return;
    throw new BadRequestError(
      `a prompt of ${chars} characters cannot fit this model's context of ${this.maxModelLen} tokens (no prompt longer than ${this.maxPromptChars} characters can); shorten it`,
      bound.param,
    );
  }
}
