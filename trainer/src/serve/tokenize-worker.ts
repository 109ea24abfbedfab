import { parentPort, workerData } from 'node:worker_threads';
import { GauntletError } from '@gauntlet/proto';
import { ModelTokenizer } from '../model/tokenizer.js';
import { renderChat, type ChatPromptOptions, type WireChatMessage } from './chat-prompt.js';

/**
 * The tokenizer thread: encodes, renders and decodes large inputs off the server's event loop,
 * with the same tokenizer files and the same code as the main thread. See prompt-tokenizer.ts.
 */
type Call =
  | { id: number; op: 'encode'; texts: string[]; addSpecialTokens: boolean }
  | { id: number; op: 'chat'; messages: WireChatMessage[]; options: ChatPromptOptions; maxChars?: number }
  | { id: number; op: 'decode'; ids: Uint32Array };

const tokenizer = await ModelTokenizer.load((workerData as { dir: string }).dir);
const port = parentPort!;

function answer(call: Call): { result: unknown; transfer: ArrayBuffer[] } {
  if (call.op === 'encode') {
    const lists = call.texts.map((text) => Uint32Array.from(tokenizer.encode(text, { addSpecialTokens: call.addSpecialTokens })));
    return { result: lists, transfer: lists.map((l) => l.buffer as ArrayBuffer) };
  }
  if (call.op === 'chat') {
    const text = renderChat(tokenizer, call.messages, call.options);
    if (call.maxChars !== undefined && text.length > call.maxChars) return { result: { chars: text.length }, transfer: [] };
    const ids = Uint32Array.from(tokenizer.encode(text, { addSpecialTokens: call.options.addSpecialTokens ?? false }));
    return { result: { ids }, transfer: [ids.buffer as ArrayBuffer] };
  }
  return { result: tokenizer.decode([...call.ids]), transfer: [] };
}

port.on('message', (call: Call) => {
  try {
    const { result, transfer } = answer(call);
    port.postMessage({ id: call.id, result }, transfer);
  } catch (error) {
    const status = error instanceof GauntletError ? error.httpStatus : undefined;
    port.postMessage({ id: call.id, error: { name: (error as Error).name ?? 'Error', message: (error as Error).message ?? String(error), ...(status ? { status } : {}) } });
  }
});
port.postMessage({ ready: true });
