import { bytesToUnicode } from './byte-tokenizer.js';

/**
 * GPT-2's pre-tokenizer pattern, as the ByteLevel pre-tokenizer applies it with `use_regex`: merges
 * never cross the pieces it cuts, so words, numbers, punctuation runs and whitespace runs stay
 * separate tokens ("click('201')" → click · (' · 201 · ')).
 */
export const BYTE_LEVEL_PATTERN = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

export interface LearnedMerges {
  /** Merge rules in rank order, each a pair of vocabulary strings (GPT-2's byte↔unicode form). */
  merges: [string, string][];
  /** Characters of text read, and the distinct pre-tokenized words merges were counted over. */
  chars: number;
  words: number;
}

/**
 * Learns byte-level BPE merges from text, as `tokenizers`' BpeTrainer does: split into words by
 * {@link BYTE_LEVEL_PATTERN}, then repeatedly merge the most frequent adjacent pair (ties go to the
 * pair whose strings sort first, so the same text always gives the same merges) until `count`
 * merges are made or no pair occurs twice. Pair counts are updated only in the words a merge
 * touches, so a few thousand merges over megabytes of text take seconds.
 */
export function learnByteLevelMerges(texts: Iterable<string>, count: number): LearnedMerges {
  const byteChar = bytesToUnicode();
  const encoder = new TextEncoder();
  const frequency = new Map<string, number>();
  let chars = 0;
  for (const text of texts) {
    chars += text.length;
    for (const piece of text.match(BYTE_LEVEL_PATTERN) ?? []) frequency.set(piece, (frequency.get(piece) ?? 0) + 1);
  }
  const words = [...frequency].map(([piece, freq]) => ({
    symbols: Array.from(encoder.encode(piece), (b) => byteChar[b]!),
    freq,
  }));

  const pairCount = new Map<string, number>();
  const pairWords = new Map<string, Set<number>>();
  const key = (a: string, b: string): string => `${a}\u0000${b}`;
  const count1 = (a: string, b: string, freq: number, word: number): void => {
    const k = key(a, b);
    pairCount.set(k, (pairCount.get(k) ?? 0) + freq);
    if (freq > 0) {
      let set = pairWords.get(k);
      if (!set) pairWords.set(k, (set = new Set()));
      set.add(word);
    }
  };
  words.forEach((w, i) => {
    for (let j = 0; j + 1 < w.symbols.length; j++) count1(w.symbols[j]!, w.symbols[j + 1]!, w.freq, i);
  });

  const merges: [string, string][] = [];
  while (merges.length < count) {
    let best: string | undefined;
    let bestCount = 1; // a pair seen once saves nothing worth a vocabulary entry
    for (const [k, n] of pairCount)
      if (n <= 0) pairCount.delete(k);
      else if (n > bestCount || (n === bestCount && best !== undefined && k < best)) [best, bestCount] = [k, n];
    if (best === undefined) break;
    const [a, b] = best.split('\u0000') as [string, string];
    merges.push([a, b]);
    const merged = a + b;
    for (const i of pairWords.get(best) ?? []) {
      const w = words[i]!;
      const s = w.symbols;
      // Uncount the word's pairs, merge, count them again: simple, and only this word changes.
      for (let j = 0; j + 1 < s.length; j++) count1(s[j]!, s[j + 1]!, -w.freq, i);
      const next: string[] = [];
      for (let j = 0; j < s.length; j++) {
        if (j + 1 < s.length && s[j] === a && s[j + 1] === b) {
          next.push(merged);
          j++;
        } else next.push(s[j]!);
      }
      w.symbols = next;
      for (let j = 0; j + 1 < next.length; j++) count1(next[j]!, next[j + 1]!, w.freq, i);
    }
    pairCount.delete(best);
    pairWords.delete(best);
  }
  return { merges, chars, words: words.length };
}
