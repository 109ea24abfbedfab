/**
 * A byte-level BPE `tokenizer.json`: token id b is byte b, so any UTF-8 text round-trips, then the
 * special tokens. With no merges the vocabulary is 256 + the special tokens and no training data
 * is needed. With merges (see bpe-train.ts) each merged string is one more token, ids after the
 * special tokens, and text is first split by GPT-2's pattern (`use_regex`), as the merges were
 * learned. GPT-2's byte↔unicode table makes every byte a printable vocabulary entry, as in
 * Qwen/Llama 3.
 */
export const TINY_SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;

/** ChatML as Qwen writes it; the system turn is optional. */
export const CHATML_TEMPLATE =
  "{%- for message in messages %}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{%- endfor %}" +
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}";

export function byteLevelTokenizerJson(
  specialTokens: readonly string[] = TINY_SPECIAL_TOKENS,
  merges: readonly (readonly [string, string])[] = [],
): Record<string, unknown> {
  const useRegex = merges.length > 0;
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: useRegex };
  const vocab = byteLevelVocab(specialTokens.length, merges);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specialTokens.map((content, i) => ({
      id: 256 + i,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: byteLevel,
    decoder: byteLevel,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      // "a b" strings: every tokenizers version reads them (byte-level tokens never hold a space).
      merges: merges.map(([a, b]) => `${a} ${b}`),
    },
  };
}

/**
 * Bytes are ids 0–255, the special tokens come next, then each merge's string in rank order; two
 * merges that spell the same string ("ab"+"c", "a"+"bc") share its id, as in `tokenizers`.
 */
export function byteLevelVocab(
  specialCount: number,
  merges: readonly (readonly [string, string])[] = [],
): Record<string, number> {
  const vocab: Record<string, number> = {};
  bytesToUnicode().forEach((char, byte) => (vocab[char] = byte));
  let next = 256 + specialCount;
  for (const [a, b] of merges) if (!Object.hasOwn(vocab, a + b)) vocab[a + b] = next++;
  return vocab;
}

/** The vocabulary size of {@link byteLevelTokenizerJson} with these merges. */
export function byteLevelVocabSize(specialCount: number, merges: readonly (readonly [string, string])[] = []): number {
  return Math.max(255 + specialCount, ...Object.values(byteLevelVocab(specialCount, merges))) + 1;
}

/** GPT-2's `bytes_to_unicode`: printable bytes map to themselves, the rest to code points from 256 up. */
export function bytesToUnicode(): string[] {
  const chars: string[] = [];
  let shifted = 0;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || (byte >= 174 && byte <= 255);
    chars.push(String.fromCodePoint(printable ? byte : 256 + shifted++));
  }
  return chars;
}
