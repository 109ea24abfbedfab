import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endTokenIds } from './end-tokens.js';

function folder(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'end-tokens-'));
  for (const [name, json] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(json));
  return dir;
}

const CHATML = '{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}';
const ADDED = [
  { id: 151643, content: '<|endoftext|>', special: true },
  { id: 151644, content: '<|im_start|>', special: true },
  { id: 151645, content: '<|im_end|>', special: true },
];

describe('endTokenIds', () => {
  it('a base model: eos <|endoftext|>, but its ChatML template ends turns with <|im_end|>: both, not <|im_start|>', () => {
    const dir = folder({
      'tokenizer.json': { added_tokens: ADDED },
      'tokenizer_config.json': { eos_token: '<|endoftext|>', chat_template: CHATML },
      'generation_config.json': { eos_token_id: 151643 },
    });
    expect(endTokenIds(dir)).toEqual([151643, 151645]);
  });

  it('an instruct model: generation_config lists both; an eos_token object form is read too', () => {
    const dir = folder({
      'tokenizer.json': { added_tokens: ADDED },
      'tokenizer_config.json': { eos_token: { content: '<|im_end|>' }, chat_template: CHATML },
      'generation_config.json': { eos_token_id: [151645, 151643] },
    });
    expect(endTokenIds(dir)).toEqual([151643, 151645]);
  });

  it('missing or broken files add nothing', () => {
    const dir = folder({ 'tokenizer.json': { added_tokens: ADDED } });
    writeFileSync(join(dir, 'tokenizer_config.json'), '{not json');
    expect(endTokenIds(dir)).toEqual([]);
  });
});
