import { describe, expect, it } from 'vitest';
import { ModelTokenizer } from '../../../src/model/tokenizer.js';
import { writeTinyModel } from '../../../src/model/tiny.js';
import { parseDpoJsonl } from '../../../src/train/dpo/data.js';
import { encodeDpoRecords } from '../../../src/train/dpo/encode.js';
import { parseSftJsonl } from '../../../src/train/sft-data.js';
import { encodeSftRecords } from '../../../src/train/sft-encode.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

async function tinyTokenizer(): Promise<ModelTokenizer> {
  const dir = await tempDir();
  await writeTinyModel(dir);
  return ModelTokenizer.load(dir);
}

const user = { role: 'user', content: 'Which button?' };
const reply = (content: string) => ({ role: 'assistant', content });
const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n');

describe('encodeDpoRecords', () => {
  it('encodes each side exactly as SFT encodes the same prompt and completion (template, masks)', async () => {
    const tokenizer = await tinyTokenizer();
    const options = { maxLength: 512, vocabSize: 512 };
    const text = jsonl({ prompt: [user], chosen: [reply('click("5")')], rejected: [reply('noop()')] });
    const { pairs, lines, truncated, dropped } = encodeDpoRecords(
      'd.jsonl',
      parseDpoJsonl('d.jsonl', text),
      tokenizer,
      options,
    );
    const sft = (completion: string) =>
      encodeSftRecords(
        'd.jsonl',
        parseSftJsonl('d.jsonl', jsonl({ prompt: [user], completion: [reply(completion)] })),
        tokenizer,
        options,
      ).sequences[0];
    expect(pairs).toEqual([{ chosen: sft('click("5")'), rejected: sft('noop()') }]);
    expect([lines, truncated, dropped]).toEqual([[1], [], []]);
    // The prompt is shared token for token; only the completions are trained.
    const { chosen, rejected } = pairs[0]!;
    const promptLength = chosen.mask.indexOf(1);
    expect(rejected.mask.indexOf(1)).toBe(promptLength);
    expect(chosen.tokens.slice(0, promptLength)).toEqual(rejected.tokens.slice(0, promptLength));
  });

  it('reports pairs cut to the maximum length, and leaves out (reported) those with nothing left to compare', async () => {
    const tokenizer = await tinyTokenizer();
    const long = 'x'.repeat(200);
    const text = jsonl(
      { prompt: 'Q: ', chosen: 'yes', rejected: 'no' },
      { prompt: 'Q: ', chosen: long, rejected: 'no' },
      { prompt: long, chosen: 'yes', rejected: 'no' },
      { prompt: 'Q: ', chosen: `${long}a`, rejected: `${long}b` },
      { prompt: 'Q: ', chosen: 'same', rejected: 'same' },
    );
    const out = encodeDpoRecords('d.jsonl', parseDpoJsonl('d.jsonl', text), tokenizer, {
      maxLength: 64,
      vocabSize: 512,
    });
    expect(out.lines).toEqual([1, 2]);
    expect(out.truncated).toEqual([2]);
    expect(out.pairs[1]!.chosen.tokens).toHaveLength(64);
    expect(out.dropped).toEqual([
      { line: 3, reason: 'a completion starts after 64 tokens' },
      { line: 4, reason: 'chosen and rejected are the same tokens' },
      { line: 5, reason: 'chosen and rejected are the same tokens' },
    ]);
  });
});
