/**
 * A byte-level BPE `tokenizer.json` with no merges: token id b is byte b, so any UTF-8 text
 * round-trips, the vocabulary is 256 + the special tokens, and no training data is needed.
 * GPT-2's byte↔unicode table makes every byte a printable vocabulary entry, as in Qwen/Llama 3.
 */
export const TINY_SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;

/** ChatML as Qwen writes it; the system turn is optional. */
export const CHATML_TEMPLATE =
  "{%- for message in messages %}{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{%- endfor %}" +
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}";

export function byteLevelTokenizerJson(
  specialTokens: readonly string[] = TINY_SPECIAL_TOKENS,
): Record<string, unknown> {
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false };
  const vocab: Record<string, number> = {};
  bytesToUnicode().forEach((char, byte) => (vocab[char] = byte));
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
      merges: [],
    },
  };
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
