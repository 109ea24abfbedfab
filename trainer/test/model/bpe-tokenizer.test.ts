import { describe, expect, it } from 'vitest';
import { learnByteLevelMerges } from '../../src/model/bpe-train.js';
import { ModelTokenizer } from '../../src/model/tokenizer.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

const ACTIONS = ["click('12')", "click('12')", "fill('13', 'AB12CD')", "click('14')", 'noop(175)', "click('12')"].join(
  '\n',
);

async function tokenizerWith(merges: [string, string][]): Promise<ModelTokenizer> {
  const dir = await tempDir();
  await writeTinyModel(dir, { merges });
  return ModelTokenizer.load(dir);
}

describe('learnByteLevelMerges', () => {
  it('merges the most frequent pair first and breaks ties by the pair that sorts first', () => {
    // "a"+"b" and "c"+"d" both occur 3 times (pieces are "ab", " ab", " cd", …): "a"+"b" sorts first.
    const { merges } = learnByteLevelMerges(['ab ab ab cd cd cd xy'], 10);
    expect(merges.slice(0, 2)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    // GPT-2's pattern keeps the leading space with the word: " ab" is Ġ + ab.
    expect(merges).toContainEqual(['Ġ', 'ab']);
    // A pair seen once is not worth a token: "x"+"y" occurs once.
    expect(merges.flat()).not.toContain('x');
  });

  it('never merges across the pieces GPT-2 cuts text into (words, numbers, punctuation, whitespace)', () => {
    const { merges } = learnByteLevelMerges([ACTIONS.repeat(20)], 500);
    const strings = merges.map(([a, b]) => a + b);
    expect(strings).toEqual(expect.arrayContaining(['click', "('", "')", '12']));
    for (const token of strings) {
      // No token mixes letters with digits or punctuation: each stays within one piece.
      expect(/^(Ġ?[a-zA-Z]+|Ġ?\d+|Ġ?[^a-zA-Z\dĠĊ]+|[ĠĊ]+)$/.test(token), token).toBe(true);
    }
  });

  it('stops at the count asked for, or when no pair occurs twice, and is deterministic', () => {
    expect(learnByteLevelMerges([ACTIONS], 3).merges).toHaveLength(3);
    const all = learnByteLevelMerges([ACTIONS], 10_000);
    expect(all.merges.length).toBeGreaterThan(3);
    expect(all.merges.length).toBeLessThan(100);
    expect(learnByteLevelMerges([ACTIONS], 10_000)).toEqual(all);
    expect(learnByteLevelMerges([], 10)).toEqual({ merges: [], chars: 0, words: 0 });
  });
});

describe('tiny tokenizer with learned merges', () => {
  it('encodes the text it learned from in fewer tokens and round-trips any text', async () => {
    const { merges } = learnByteLevelMerges([ACTIONS.repeat(20)], 200);
    const tokenizer = await tokenizerWith(merges);
    const ids = tokenizer.encode("click('12')");
    expect(ids.map((id) => tokenizer.decode([id]))).toEqual(['click', "('", '12', "')"]);
    for (const text of [ACTIONS, 'Hé 🌍 unseen wörds\r\n\t\tclick(  ', '', '<no merges here>']) {
      expect(tokenizer.decode(tokenizer.encode(text))).toBe(text);
    }
    expect(tokenizer.encode(ACTIONS).length).toBeLessThan(Buffer.byteLength(ACTIONS) / 2);
  });

  it('keeps the special tokens at 256–258 and numbers merged tokens after them', async () => {
    const { merges } = learnByteLevelMerges([ACTIONS.repeat(20)], 50);
    const tokenizer = await tokenizerWith(merges);
    expect(tokenizer.encode('<|im_start|>click<|im_end|>')).toEqual([257, tokenizer.tokenToId('click'), 258]);
    expect(tokenizer.tokenToId(merges[0]!.join(''))).toBe(259);
    expect(tokenizer.vocabSize).toBe(259 + merges.length);
  });

  it('gives two merges that spell the same string one id, as tokenizers does', async () => {
    const merges: [string, string][] = [
      ['a', 'b'],
      ['b', 'c'],
      ['ab', 'c'],
      ['a', 'bc'],
    ];
    const tokenizer = await tokenizerWith(merges);
    expect(tokenizer.vocabSize).toBe(259 + 3);
    expect(tokenizer.encode('abc')).toEqual([tokenizer.tokenToId('abc')]);
  });
});
