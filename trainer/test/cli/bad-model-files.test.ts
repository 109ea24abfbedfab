import { readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTinyModel } from '../../src/model/tiny.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

type Breakage = (dir: string) => Promise<unknown>;

const editJson =
  (file: string, edit: (json: Record<string, unknown>) => Record<string, unknown>): Breakage =>
  async (dir) =>
    writeFile(join(dir, file), JSON.stringify(edit(JSON.parse(await readFile(join(dir, file), 'utf8')))));

/**
 * The list of bad inputs — missing files, wrong shapes, unknown architectures, corrupt
 * safetensors, broken tokenizer files — each through the whole `sft` load path (config, weights,
 * tokenizer): exit 1 and one line naming the file and the field or tensor, never a stack trace.
 */
const cases: [string, Breakage, string][] = [
  ['missing config.json', (d) => rm(join(d, 'config.json')), 'config.json: file not found'],
  [
    'unknown architecture',
    editJson('config.json', (j) => ({ ...j, architectures: ['MistralForCausalLM'] })),
    'config.json: architectures ["MistralForCausalLM"] is not supported',
  ],
  [
    'config field of the wrong type',
    editJson('config.json', (j) => ({ ...j, hidden_size: '64' })),
    'config.json: hidden_size must be a positive integer (got "64")',
  ],
  [
    'weights that do not fit the config',
    editJson('config.json', (j) => ({ ...j, intermediate_size: 96 })),
    'model.safetensors: tensor model.layers.0.mlp.gate_proj.weight has shape [128, 64], expected [96, 64]',
  ],
  [
    'missing weights',
    (d) => rm(join(d, 'model.safetensors')),
    ': no model.safetensors or model.safetensors.index.json in the model folder',
  ],
  [
    'truncated safetensors',
    async (d) => {
      const file = join(d, 'model.safetensors');
      await truncate(file, (await stat(file)).size - 100);
    },
    'model.safetensors: tensor model.norm.weight: data_offsets [363264, 363520] out of range',
  ],
  [
    'safetensors header overwritten',
    async (d) => {
      const file = join(d, 'model.safetensors');
      const bytes = await readFile(file);
      bytes.write('garbage!', 8);
      await writeFile(file, bytes);
    },
    'model.safetensors: safetensors header is not valid JSON',
  ],
  ['missing tokenizer.json', (d) => rm(join(d, 'tokenizer.json')), 'tokenizer.json: file not found'],
  [
    'tokenizer.json not JSON',
    (d) => writeFile(join(d, 'tokenizer.json'), '{"model": '),
    'tokenizer.json: is not valid JSON',
  ],
  [
    'eos_token not in the vocabulary',
    editJson('tokenizer_config.json', (j) => ({ ...j, eos_token: '<|nope|>' })),
    `tokenizer_config.json: eos_token "<|nope|>" is not in tokenizer.json's vocabulary`,
  ],
];

describe('bad model folders fail sft with the file and field named', () => {
  it.each(cases)('%s', async (_label, breakIt, message) => {
    const root = await tempDir();
    const model = join(root, 'model');
    await writeTinyModel(model);
    await breakIt(model);
    const data = join(root, 'data.jsonl');
    await writeFile(data, `${JSON.stringify({ prompt: 'a', completion: 'b' })}\n`);
    const { code, stderr } = await runInProcess(['sft', '--model', model, '--data', data, '--out', join(root, 'out')]);
    const where = message.startsWith(':') ? model : `${model}/`;
    expect(stderr.split('\n')).toEqual([expect.stringMatching(/^gauntlet-trainer sft: /)]);
    expect(stderr).toContain(`${where}${message}`);
    expect(code).toBe(1);
  });
});
