import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelTokenizer } from '../../src/model/tokenizer.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import type { TrainSequence } from '../../src/train/batch.js';
import { parseSftJsonl } from '../../src/train/sft-data.js';
import { encodeSftRecords } from '../../src/train/sft-encode.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

async function tinyTokenizer(chatTemplate?: string): Promise<ModelTokenizer> {
  const dir = await tempDir();
  await writeTinyModel(dir);
  if (chatTemplate !== undefined) {
    const file = join(dir, 'tokenizer_config.json');
    await writeFile(file, JSON.stringify({ ...JSON.parse(await readFile(file, 'utf8')), chat_template: chatTemplate }));
  }
  return ModelTokenizer.load(dir);
}

/** The trained spans of a sequence, decoded. */
function trainedText(tokenizer: ModelTokenizer, s: TrainSequence): string[] {
  const spans: number[][] = [];
  s.mask.forEach((m, i) => {
    if (m === 1 && (i === 0 || s.mask[i - 1] !== 1)) spans.push([]);
    if (m === 1) spans.at(-1)!.push(s.tokens[i]!);
  });
  return spans.map((span) => tokenizer.decode(span));
}

const line = (value: unknown) => JSON.stringify(value);

describe('encodeSftRecords', () => {
  it('renders chats with the template and trains each assistant reply up to its end-of-turn token', async () => {
    const tokenizer = await tinyTokenizer();
    const records = parseSftJsonl(
      'd.jsonl',
      [
        line({
          messages: [
            { role: 'system', content: 'Be terse.' },
            { role: 'user', content: 'sky?' },
            { role: 'assistant', content: 'blue' },
            { role: 'user', content: 'grass?' },
            { role: 'assistant', content: 'green' },
          ],
        }),
        line({ prompt: 'cat says', completion: ' meow' }),
      ].join('\n'),
    );
    const { sequences, lines } = encodeSftRecords('d.jsonl', records, tokenizer, { maxLength: 1024, vocabSize: 259 });
    expect(lines).toEqual([1, 2]);
    const [chat, text] = sequences as [TrainSequence, TrainSequence];
    expect(tokenizer.decode(chat.tokens)).toBe(
      tokenizer.applyChatTemplate(records[0]!.kind === 'chat' ? records[0]!.messages : []),
    );
    expect(trainedText(tokenizer, chat)).toEqual(['blue<|im_end|>', 'green<|im_end|>']);
    // The context of the first reply is exactly the generation prompt a server would send.
    const firstReply = chat.mask.indexOf(1);
    expect(chat.tokens.slice(0, firstReply)).toEqual(
      tokenizer.encodeChat(
        [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'sky?' },
        ],
        { addGenerationPrompt: true },
      ),
    );
    expect(tokenizer.decode(text.tokens)).toBe('cat says meow<|im_end|>');
    expect(trainedText(tokenizer, text)).toEqual([' meow<|im_end|>']);
  });

  it('weights the untrained tokens by promptLossWeight, trained ones staying at 1', async () => {
    const tokenizer = await tinyTokenizer();
    const records = parseSftJsonl(
      'd.jsonl',
      [
        line({
          messages: [
            { role: 'user', content: 'sky?' },
            { role: 'assistant', content: 'blue' },
          ],
        }),
        line({ prompt: 'cat says', completion: ' meow' }),
      ].join('\n'),
    );
    const plain = encodeSftRecords('d.jsonl', records, tokenizer, { maxLength: 1024, vocabSize: 259 });
    const weighted = encodeSftRecords('d.jsonl', records, tokenizer, {
      maxLength: 1024,
      vocabSize: 259,
      promptLossWeight: 0.25,
    });
    expect(weighted.sequences.map((s) => s.tokens)).toEqual(plain.sequences.map((s) => s.tokens));
    weighted.sequences.forEach((s, k) => {
      const before = plain.sequences[k]!.mask;
      expect(before.some((m) => m === 0)).toBe(true);
      expect(s.mask).toEqual(before.map((m) => (m === 1 ? 1 : 0.25)));
    });
    expect(trainedText(tokenizer, weighted.sequences[0]!)).toEqual(['blue<|im_end|>']);
    expect(() =>
      encodeSftRecords('d.jsonl', records, tokenizer, { maxLength: 1024, vocabSize: 259, promptLossWeight: 1.5 }),
    ).toThrow('promptLossWeight must be in [0, 1] (got 1.5)');
  });

  it('truncates long examples and drops those left with nothing to train', async () => {
    const tokenizer = await tinyTokenizer();
    const records = parseSftJsonl(
      'd.jsonl',
      [line({ prompt: 'abcdefgh', completion: 'ij' }), line({ prompt: 'ab', completion: 'cdefghij' })].join('\n'),
    );
    const encoded = encodeSftRecords('d.jsonl', records, tokenizer, { maxLength: 6, vocabSize: 259 });
    expect(encoded).toMatchObject({ truncated: 2, dropped: [1], lines: [2], tooLong: [] });
    expect(encoded.sequences[0]!.tokens).toHaveLength(6);
  });

  it('fits long chats by dropping their oldest exchanges, and leaves out those whose kept parts are too long', async () => {
    const tokenizer = await tinyTokenizer();
    const exchange = (i: number, size: number) => [
      { role: 'user', content: `observation ${i} `.padEnd(size, '.') },
      { role: 'assistant', content: `action(${i})` },
    ];
    const long = [{ role: 'system', content: 'Act.' }, ...[1, 2, 3, 4, 5].flatMap((i) => exchange(i, 100))];
    const short = [{ role: 'system', content: 'Act.' }, ...exchange(1, 10)];
    const records = parseSftJsonl(
      'd.jsonl',
      [line({ messages: long }), line({ messages: short }), line({ messages: [long[0], ...exchange(1, 900)] })].join(
        '\n',
      ),
    );
    const encoded = encodeSftRecords('d.jsonl', records, tokenizer, { maxLength: 410, vocabSize: 259 });
    expect(encoded).toMatchObject({ lines: [1, 2], tooLong: [3], truncated: 0, trimmed: { conversations: 1 } });
    const trimmed = encoded.sequences[0]!;
    expect(trimmed.tokens.length).toBeLessThanOrEqual(410);
    // Each exchange is 130 tokens and the system turn 14: three exchanges (404) fit, so two go.
    expect(encoded.trimmed.exchanges).toBe(2);
    const kept = [...long.slice(0, 3), ...long.slice(7)];
    // Exactly the conversation without its oldest middle exchanges, trained on the replies kept.
    expect(tokenizer.decode(trimmed.tokens)).toBe(tokenizer.applyChatTemplate(kept));
    expect(trainedText(tokenizer, trimmed)).toEqual([
      'action(1)<|im_end|>',
      'action(4)<|im_end|>',
      'action(5)<|im_end|>',
    ]);
  });

  it('names the line for a template that refuses the messages, one that is not prefix-stable, and tokens outside the vocabulary', async () => {
    const chat = line({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ],
    });
    const refusing = await tinyTokenizer("{{ raise_exception('no system prompt') }}");
    expect(() =>
      encodeSftRecords('d.jsonl', parseSftJsonl('d.jsonl', chat), refusing, { maxLength: 99, vocabSize: 259 }),
    ).toThrow(/^d\.jsonl:1: messages: chat template .* refused the messages: no system prompt/);
    // Writes the turn count first, so adding a turn rewrites the start of the text.
    const unstable = await tinyTokenizer('{{ messages | length }}{% for m in messages %}{{ m.content }}{% endfor %}');
    expect(() =>
      encodeSftRecords('d.jsonl', parseSftJsonl('d.jsonl', chat), unstable, { maxLength: 99, vocabSize: 259 }),
    ).toThrow('d.jsonl:1: the chat template is not prefix-stable at message 1');
    const tokenizer = await tinyTokenizer();
    expect(() =>
      encodeSftRecords('d.jsonl', parseSftJsonl('d.jsonl', chat), tokenizer, { maxLength: 99, vocabSize: 200 }),
    ).toThrow("d.jsonl:1: token 0 is id 257, outside the model's vocabulary of 200");
  });
});
