import { UsageError } from '@gauntlet/proto/cli';
import type { LocalModel } from './local-model.js';

/** Room left for the chat template's own tokens and for the byte estimate's error. */
const MARGIN = 0.9;

/**
 * The prompt budget of a local run, in the history's estimated tokens (UTF-8 bytes / 4): the
 * served `max_model_len` caps `--context-tokens`, and a tokenizer with fewer bytes per token than
 * 4 (a byte-level one has 1) scales the prompt's share down so the real prompt still fits.
 */
export function localContextTokens(
  contextTokens: number,
  maxTokens: number,
  model: Pick<LocalModel, 'maxModelLen' | 'bytesPerToken' | 'model'>,
): { contextTokens: number; note?: string } {
  const served = model.maxModelLen ?? Infinity;
  if (maxTokens >= served)
    throw new UsageError(
      `--max-tokens ${maxTokens} leaves no room for a prompt: ${model.model} takes ${served} tokens in all`,
      'max-tokens',
    );
  const real = Math.min(contextTokens, served);
  const ratio = Math.min(1, (model.bytesPerToken ?? 4) / 4);
  const prompt = Math.floor((real - maxTokens) * ratio * MARGIN);
  const notes = [
    ...(real < contextTokens ? [`--context-tokens ${contextTokens} is over the served ${served}; using ${real}`] : []),
    ...(ratio < 1
      ? [`its tokenizer takes ${model.bytesPerToken!.toFixed(2)} bytes a token; prompts are sized to fit`]
      : []),
  ];
  return { contextTokens: maxTokens + prompt, ...(notes.length ? { note: notes.join('; ') } : {}) };
}
