import type { ModelTokenizer } from '../../model/tokenizer.js';
import { encodeSftRecords, type SftEncodeOptions } from '../sft-encode.js';
import type { DpoLine } from './data.js';
import type { DpoPair } from './pairs.js';

export interface DpoEncoded {
  pairs: DpoPair[];
  /** Source line of each pair. */
  lines: number[];
  /** Lines whose chosen or rejected side was cut to the maximum length (the pair is kept). */
  truncated: number[];
  /** Lines left out, each with the reason. */
  dropped: { line: number; reason: string }[];
}

/**
 * Tokenises both sides of every pair exactly as SFT encodes a record (chat template, trained
 * assistant turns, truncation); a pair is left out, and reported, when a side has nothing left to
 * train within the maximum length or when both sides are the same tokens (nothing to prefer).
 */
export function encodeDpoRecords(
  file: string,
  records: readonly DpoLine[],
  tokenizer: ModelTokenizer,
  options: SftEncodeOptions,
): DpoEncoded {
  const out: DpoEncoded = { pairs: [], lines: [], truncated: [], dropped: [] };
  for (const record of records) {
    const encoded = encodeSftRecords(file, [record.chosen, record.rejected], tokenizer, options);
    if (encoded.sequences.length < 2) {
      out.dropped.push({ line: record.line, reason: `a completion starts after ${options.maxLength} tokens` });
      continue;
    }
    const [chosen, rejected] = encoded.sequences as [DpoPair['chosen'], DpoPair['rejected']];
    if (chosen.tokens.length === rejected.tokens.length && chosen.tokens.every((t, i) => t === rejected.tokens[i])) {
      out.dropped.push({ line: record.line, reason: 'chosen and rejected are the same tokens' });
      continue;
    }
    if (encoded.truncated > 0) out.truncated.push(record.line);
    out.pairs.push({ chosen, rejected });
    out.lines.push(record.line);
  }
  return out;
}
