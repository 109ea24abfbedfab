import { parentPort, workerData } from 'node:worker_threads';
import { GauntletError } from '@gauntlet/proto';
import type { CompileBudget } from '../generate/compile-budget.js';
import { compileSpec, type StructuredSpec } from '../generate/structured.js';
import { ModelTokenizer, type TokenizerFiles } from '../model/tokenizer.js';
import { renderChat, type ChatPromptOptions, type WireChatMessage } from './chat-prompt.js';
import { parseJsonText } from './http-io.js';
import { tokenizeReplyParts } from './prompt-tokenizer.js';

/**
 * A preparation thread: what a request may need before it can run that can take long, done off
 * the server's event loop with the same files and code as the main thread: encoding, rendering and
 * decoding large inputs, and compiling structured outputs. See prepare-pool.ts.
 */
type Call =
  | { id: number; op: 'encode'; texts: string[]; addSpecialTokens: boolean }
  | { id: number; op: 'chat'; messages: WireChatMessage[]; options: ChatPromptOptions; maxChars?: number }
  | { id: number; op: 'decode'; ids: Uint32Array }
  | { id: number; op: 'json'; bytes: Uint8Array }
  | { id: number; op: 'structured'; spec: StructuredSpec }
  | {
      id: number;
      op: 'tokenize';
      input: { text: string } | { messages: WireChatMessage[]; render: ChatPromptOptions };
      addSpecialTokens: boolean;
      strs: boolean;
    };

const { dir, files, budget } = workerData as { dir: string; files: TokenizerFiles; budget: CompileBudget };
const tokenizer = ModelTokenizer.fromFiles(dir, files);
const port = parentPort!;

function answer(call: Call): { result: unknown; transfer: ArrayBuffer[] } {
  if (call.op === 'encode') {
    const lists = call.texts.map((text) =>
      Uint32Array.from(tokenizer.encode(text, { addSpecialTokens: call.addSpecialTokens })),
    );
    return { result: lists, transfer: lists.map((l) => l.buffer as ArrayBuffer) };
  }
  if (call.op === 'chat') {
    const text = renderChat(tokenizer, call.messages, call.options);
    if (call.maxChars !== undefined && text.length > call.maxChars)
      return { result: { chars: text.length }, transfer: [] };
    const ids = Uint32Array.from(tokenizer.encode(text, { addSpecialTokens: call.options.addSpecialTokens ?? false }));
    return { result: { ids }, transfer: [ids.buffer as ArrayBuffer] };
  }
  if (call.op === 'json')
    return {
      result: parseJsonText(
        Buffer.from(call.bytes.buffer, call.bytes.byteOffset, call.bytes.byteLength).toString('utf8'),
      ),
      transfer: [],
    };
  if (call.op === 'structured') return { result: compileSpec(call.spec, budget), transfer: [] };
  if (call.op === 'tokenize') return { result: tokenizeReplyParts(tokenizer, call.input, call), transfer: [] };
  return { result: tokenizer.decode([...call.ids]), transfer: [] };
}

port.on('message', (call: Call) => {
  try {
    const { result, transfer } = answer(call);
    port.postMessage({ id: call.id, result }, transfer);
  } catch (error) {
    const status = error instanceof GauntletError ? error.httpStatus : undefined;
    port.postMessage({
      id: call.id,
      error: {
        name: (error as Error).name ?? 'Error',
        message: (error as Error).message ?? String(error),
        ...(status ? { status } : {}),
      },
    });
  }
});
port.postMessage({ ready: true });
