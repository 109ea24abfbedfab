import { compiledWorkerFile } from '../engine/worker-file.js';
import { WorkerCalls } from '../engine/worker-calls.js';
import type { ModelTokenizer } from '../model/tokenizer.js';
import { chatInputChars, renderChat, type ChatPromptOptions, type WireChatMessage } from './chat-prompt.js';
import { BadRequestError } from './http-errors.js';

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
 * (the request's total) go to a tokenizer thread, so /health and small requests keep answering
 * while a multi-megabyte prompt is encoded. Before any of that, a generation prompt longer than
 * any prompt of max_model_len tokens could be (the longest token's characters × max_model_len) is
 * refused outright: its tokens would only be counted to be refused.
 */
export class PromptTokenizer {
  /** Characters past which no prompt can fit the context, whatever it holds. */
  readonly maxPromptChars: number;

  private constructor(
    readonly tokenizer: ModelTokenizer,
    private readonly thread: WorkerCalls,
    readonly maxModelLen: number,
  ) {
    this.maxPromptChars = maxModelLen * tokenizer.longestTokenChars * NORMALIZER_SLACK;
  }

  /** Starts the tokenizer thread on the model folder's tokenizer files (read once, at start). */
  static async start(tokenizer: ModelTokenizer, modelDir: string, maxModelLen: number): Promise<PromptTokenizer> {
    const thread = new WorkerCalls(compiledWorkerFile('serve/tokenize-worker.js'), { workerData: { dir: modelDir } }, 'the tokenizer thread');
    await thread.ready;
    return new PromptTokenizer(tokenizer, thread, maxModelLen);
  }

  /** Token ids of each text; with `bound`, refuses a text too long to be a prompt before encoding it. */
  async encode(texts: readonly string[], options: { addSpecialTokens: boolean; bound?: GenerationBound }): Promise<number[][]> {
    if (options.bound) for (const text of texts) this.assertFits(text.length, options.bound);
    const chars = texts.reduce((n, t) => n + t.length, 0);
    if (chars <= INLINE_CHARS) return texts.map((text) => this.tokenizer.encode(text, { addSpecialTokens: options.addSpecialTokens }));
    const lists = await this.call<Uint32Array[]>({ op: 'encode', texts, addSpecialTokens: options.addSpecialTokens });
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
    const reply = await this.call<{ ids?: Uint32Array; chars?: number }>({ op: 'chat', messages, options: render, ...(bound ? { maxChars: this.maxPromptChars } : {}) });
    if (reply.chars !== undefined) this.assertFits(reply.chars, bound!);
    return Array.from(reply.ids!);
  }

  /** Text of token ids, special tokens kept. */
  async decode(ids: readonly number[]): Promise<string> {
    if (ids.length <= INLINE_IDS) return this.tokenizer.decode(ids);
    const packed = Uint32Array.from(ids);
    return this.call<string>({ op: 'decode', ids: packed }, [packed.buffer]);
  }

  async close(): Promise<void> {
    await this.thread.terminate();
  }

  private assertFits(chars: number, bound: GenerationBound): void {
    if (chars <= this.maxPromptChars) return;
    throw new BadRequestError(
      `a prompt of ${chars} characters cannot fit this model's context of ${this.maxModelLen} tokens (no prompt longer than ${this.maxPromptChars} characters can); shorten it`,
      bound.param,
    );
  }

  /** A call to the thread; its caller-class errors (a template that refuses the messages) come back as 400s. */
  private async call<T>(message: object, transfer: ArrayBuffer[] = []): Promise<T> {
    try {
      return await this.thread.call<T>(message, transfer);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== undefined && status >= 400 && status < 500) throw new BadRequestError((error as Error).message);
      throw error;
    }
  }
}
