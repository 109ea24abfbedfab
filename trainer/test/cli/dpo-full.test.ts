import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTinyModel } from '../../src/model/tiny.js';
import { loadModel } from '../../src/model/weights.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

const PAIRS = [
  { prompt: 'color? ', chosen: 'red', rejected: 'blue' },
  { prompt: 'animal? ', chosen: 'cat', rejected: 'horse' },
  { prompt: 'greet: ', chosen: 'hello', rejected: 'go' },
];
const STEP_LINE = /^step +(\d+)\/\d+ {2}loss (\S+) .* {2}margin (\S+) {2}accuracy (\S+)$/gm;

describe('gauntlet-trainer dpo --train full', () => {
  it('trains every weight against the model as it was, and writes a model folder', async () => {
    const root = await tempDir();
    const model = join(root, 'model');
    await writeTinyModel(model, { hiddenSize: 32, numHeads: 4, numKvHeads: 2, numLayers: 1 });
    const data = join(root, 'dpo.jsonl');
    await writeFile(data, PAIRS.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const args = ['--batch-size', '3', '--lr', '1e-3', '--threads', '1'];
    const { code, stdout, stderr } = await runInProcess([
      'dpo',
      '--model',
      model,
      '--data',
      data,
      '--out',
      join(root, 'out'),
      '--train',
      'full',
      '--steps',
      '6',
      ...args,
    ]);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/dpo: --train full: \d+ base weight tensors trained/);
    expect(stderr).not.toMatch(/dpo: LoRA r/);
    const steps = [...stderr.matchAll(STEP_LINE)].map((m) => ({ loss: Number(m[2]), margin: Number(m[3]) }));
    expect(steps).toHaveLength(6);
    // The reference is the starting model: before the first update the policy equals it exactly.
    expect(steps[0]!.margin).toBe(0);
    expect(steps[0]!.loss).toBeCloseTo(Math.LN2, 4);
    expect(steps.at(-1)!.margin).toBeGreaterThan(0);
    expect(stdout).toMatch(/Wrote model folder \(--train full\)/);
    expect((await readdir(join(root, 'out'))).sort()).toContain('model.safetensors');
    const trained = await loadModel(join(root, 'out'));
    const base = await loadModel(model);
    const embedding = 'model.embed_tokens.weight';
    expect(trained.weights.get(embedding)!.data).not.toEqual(base.weights.get(embedding)!.data);
  });

  it('refuses --init-adapter when no adapter is trained', async () => {
    const root = await tempDir();
    const data = join(root, 'dpo.jsonl');
    await writeFile(data, PAIRS.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const { code, stderr } = await runInProcess([
      'dpo',
      '--data',
      data,
      '--out',
      join(root, 'out'),
      '--train',
      'full',
      '--init-adapter',
      join(root, 'nowhere'),
    ]);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/--init-adapter starts an adapter, but --train full trains none/);
  });
});
