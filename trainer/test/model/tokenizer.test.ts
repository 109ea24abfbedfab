import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/model/random.js';
import { ModelTokenizer } from '../../src/model/tokenizer.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

/** Random text over the whole Unicode range (no lone surrogates: they are not UTF-8). */
function randomText(seed: number, length: number): string {
  const rng = createRng(seed);
  const pools = [
    [0, 0x7f],
    [0x80, 0x7ff],
    [0x800, 0xd7ff],
    [0xe000, 0xffff],
    [0x10000, 0x10ffff],
  ] as const;
  let text = '';
  for (let i = 0; i < length; i++) {
    const [low, high] = pools[Math.floor(rng.next() * pools.length)]!;
    text += String.fromCodePoint(low + Math.floor(rng.next() * (high - low + 1)));
  }
  return text;
}

describe('tiny byte-level tokenizer', () => {
  let dir: string;
  let tokenizer: ModelTokenizer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-tokenizer-'));
    await writeTinyModel(dir);
    tokenizer = await ModelTokenizer.load(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('maps each UTF-8 byte to its own id', () => {
    expect(tokenizer.encode('Hé 🌍')).toEqual([...Buffer.from('Hé 🌍', 'utf8')]);
  });

  it.each([1, 2, 3, 4, 5])('round-trips random Unicode text (seed %i)', (seed) => {
    const text = randomText(seed, 200);
    const ids = tokenizer.encode(text);
    expect(ids).toEqual([...Buffer.from(text, 'utf8')]);
    expect(tokenizer.decode(ids)).toBe(text);
  });

  it('keeps whitespace, control characters and spacing around punctuation as written', () => {
    for (const text of ['', '  two  spaces ', 'a\r\n\tb\u0000c', 'word , word . done !', "it 's"]) {
      expect(tokenizer.decode(tokenizer.encode(text))).toBe(text);
    }
  });

  it('encodes special tokens in text as single ids and can skip them when decoding', () => {
    const ids = tokenizer.encode('<|im_start|>user\nhi<|im_end|>');
    expect(ids).toEqual([257, ...Buffer.from('user\nhi'), 258]);
    expect(tokenizer.decode(ids, { skipSpecialTokens: true })).toBe('user\nhi');
    expect(tokenizer.isSpecial(258) && tokenizer.isEos(258) && !tokenizer.isEos(257)).toBe(true);
    expect(tokenizer.tokenToId('<|endoftext|>')).toBe(256);
    expect(tokenizer.idToToken(32)).toBe('Ġ');
  });

  it('renders ChatML, with and without the generation prompt', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Click the button' },
    ];
    const prompt = '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nClick the button<|im_end|>\n';
    expect(tokenizer.applyChatTemplate(messages)).toBe(prompt);
    expect(tokenizer.applyChatTemplate(messages, { addGenerationPrompt: true })).toBe(
      `${prompt}<|im_start|>assistant\n`,
    );
    expect(tokenizer.encodeChat(messages, { addGenerationPrompt: true }).slice(-11)).toEqual([
      257,
      ...Buffer.from('assistant\n'),
    ]);
  });
});

describe('chat templates from other sources', () => {
  it('prefers chat_template.jinja, passes special tokens and extra variables, and reports template errors as validation errors', async () => {
    const dir = await tempDir();
    await writeTinyModel(dir);
    await writeFile(
      join(dir, 'chat_template.jinja'),
      "{% if messages[0]['role'] != 'user' %}{{ raise_exception('first message must be from the user') }}{% endif %}" +
        "{{ eos_token }}|{% for m in messages %}{{ m['content'] }}{% endfor %}|{{ flavour }}",
    );
    const tokenizer = await ModelTokenizer.load(dir);
    expect(tokenizer.applyChatTemplate([{ role: 'user', content: 'x' }], { variables: { flavour: 'mint' } })).toBe(
      '<|im_end|>|x|mint',
    );
    expect(() => tokenizer.applyChatTemplate([{ role: 'assistant', content: 'x' }])).toThrow(
      expect.objectContaining({
        name: 'ValidationError',
        message: expect.stringContaining('first message must be from the user'),
      }),
    );
  });

  it('names the file for a template that does not parse and for an unknown eos token', async () => {
    const dir = await tempDir();
    await writeTinyModel(dir);
    await writeFile(join(dir, 'chat_template.jinja'), '{% for m in messages %}');
    await expect(ModelTokenizer.load(dir)).rejects.toThrow(
      `${join(dir, 'chat_template.jinja')}: chat template does not parse`,
    );
    await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify({ eos_token: { content: '<|nope|>' } }));
    await expect(ModelTokenizer.load(dir)).rejects.toThrow(
      `${join(dir, 'tokenizer_config.json')}: eos_token "<|nope|>" is not in tokenizer.json's vocabulary`,
    );
  });

  it('takes the eos token a completion ends with from tokenizer_config.json, whatever generation_config.json lists first', async () => {
    const dir = await tempDir();
    await writeTinyModel(dir);
    await writeFile(join(dir, 'generation_config.json'), JSON.stringify({ eos_token_id: [256, 258] }));
    const tokenizer = await ModelTokenizer.load(dir);
    expect(tokenizer.eosTokenIds).toEqual([256, 258]);
    expect(tokenizer.eosTokenId).toBe(258);
  });
});
