import type { HostTensor } from '../engine/host-tensor.js';
import { hostTensor } from '../engine/host-tensor.js';
import { ATTENTION_MASK, INPUT_IDS, POSITION_IDS } from './graph.js';

export interface TokenBatch {
  /** [batch, seq] ids, right-padded. */
  inputIds: HostTensor<'int64'>;
  /** 1 for real tokens, 0 for padding. */
  attentionMask: HostTensor<'int64'>;
  /** 0, 1, 2, … along each sequence (padding continues the count; it is masked anyway). */
  positionIds: HostTensor<'int64'>;
  /** Real length of each row. */
  lengths: number[];
}

/** Right-pads token sequences into one batch. */
export function padBatch(sequences: readonly (readonly number[])[], padId: number, length?: number): TokenBatch {
  if (sequences.length === 0) throw new RangeError('padBatch: no sequences');
  const seq = length ?? Math.max(...sequences.map((s) => s.length));
  const longest = Math.max(...sequences.map((s) => s.length));
  if (longest > seq) throw new RangeError(`padBatch: a sequence has ${longest} tokens, more than the length ${seq}`);
  const n = sequences.length * seq;
  const ids = new BigInt64Array(n).fill(BigInt(padId));
  const mask = new BigInt64Array(n);
  const positions = new BigInt64Array(n);
  sequences.forEach((s, row) => {
    for (let t = 0; t < seq; t++) {
      positions[row * seq + t] = BigInt(t);
      if (t < s.length) {
        ids[row * seq + t] = BigInt(s[t]!);
        mask[row * seq + t] = 1n;
      }
    }
  });
  const dims = [sequences.length, seq];
  return {
    inputIds: hostTensor('int64', dims, ids),
    attentionMask: hostTensor('int64', dims, mask),
    positionIds: hostTensor('int64', dims, positions),
    lengths: sequences.map((s) => s.length),
  };
}

export function batchFeeds(batch: TokenBatch): Record<string, HostTensor> {
  return { [INPUT_IDS]: batch.inputIds, [ATTENTION_MASK]: batch.attentionMask, [POSITION_IDS]: batch.positionIds };
}
