import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSftCheckpoint, writeTrainedOutput } from '../../src/cli/commands/sft/checkpoint.js';
import { loadTrainingModel } from '../../src/cli/commands/training-model.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { ModelTokenizer } from '../../src/model/tokenizer.js';
import { loadModel } from '../../src/model/weights.js';
import type { TrainSequence } from '../../src/train/batch.js';
import { FULL, parseTrainSpec } from '../../src/train/trainable.js';
import { LoraTrainer } from '../../src/train/trainer.js';
import { useTempDirs } from '../support/temp-dir.js';
import { runInProcess } from './run-cli.js';

const tempDir = useTempDirs();

const DATA = [
  { prompt: 'cat says', completion: ' meow' },
  { prompt: 'dog says', completion: ' woof' },
  {
    messages: [
      { role: 'user', content: 'sky?' },
      { role: 'assistant', content: 'blue' },
    ],
  },
];

async function setup(): Promise<{ model: string; data: string; root: string }> {
  const root = await tempDir();
  const model = join(root, 'model');
  await writeTinyModel(model, { hiddenSize: 32, numHeads: 4, numKvHeads: 2, numLayers: 1 });
  const data = join(root, 'data.jsonl');
  await writeFile(data, DATA.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return { model, data, root };
}

const rows: TrainSequence[] = [
  { tokens: [3, 10, 200, 7, 9], mask: [0, 0, 1, 1, 1] },
  { tokens: [5, 6, 42], mask: [0, 1, 1] },
];

describe('sft --train full', () => {
  it('the written model folder reloads, through the loader serve uses, to bitwise the same logprobs', async () => {
    const { model: dir, root } = await setup();
    const model = await loadTrainingModel(dir);
    const trainerOf = (weights: typeof model.weights, train = FULL) =>
      LoraTrainer.create({
        config: model.config,
        weights,
        lora: makeLoraConfig({ rank: 2 }),
        train,
        schedule: { lr: 1e-2 },
        runtime: { intraOpNumThreads: 1 },
      });
    const trained = await trainerOf(model.weights);
    for (let i = 0; i < 3; i++) await trained.trainStep(rows);
    const out = join(root, 'out');
    await writeTrainedOutput(out, trained, model);
    expect((await readdir(out)).sort()).toEqual([
      'config.json',
      'generation_config.json',
      'model.safetensors',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
    const loaded = await loadModel(out);
    await ModelTokenizer.load(out);
    expect(loaded.config.vocabSize).toBe(model.config.vocabSize);
    const reloaded = await trainerOf(loaded.weights);
    const [want, got] = [await trained.accumulate(rows), await reloaded.accumulate(rows)];
    expect(got.logprobs).toEqual(want.logprobs);
    expect(got.loss).toBe(want.loss);
    // And it is not the base model: training moved it.
    const base = await trainerOf(model.weights);
    expect((await base.accumulate(rows)).loss).not.toBe(want.loss);
    await Promise.all([trained.release(), reloaded.release(), base.release()]);
  });

  it('with lora and head trained, the adapter is merged into the written model folder', async () => {
    const { model: dir, root } = await setup();
    const model = await loadTrainingModel(dir);
    const trainer = await LoraTrainer.create({
      config: model.config,
      weights: model.weights,
      lora: makeLoraConfig({ rank: 2 }),
      train: parseTrainSpec('lora,head'),
      seed: 3,
      schedule: { lr: 1e-2 },
      runtime: { intraOpNumThreads: 1 },
    });
    for (let i = 0; i < 2; i++) await trainer.trainStep(rows);
    const out = join(root, 'merged');
    await writeTrainedOutput(out, trainer, model);
    const plain = await LoraTrainer.create({
      config: model.config,
      weights: (await loadModel(out)).weights,
      lora: makeLoraConfig({ rank: 2 }),
      train: parseTrainSpec('head'),
      schedule: { lr: 1e-2 },
      runtime: { intraOpNumThreads: 1 },
    });
    const [want, got] = [await trainer.accumulate(rows), await plain.accumulate(rows)];
    expect(got.loss).toBeCloseTo(want.loss, 5);
    await Promise.all([trainer.release(), plain.release()]);
  });

  it('the CLI writes a model folder and checkpoints; a resumed run ends bitwise where an uninterrupted one does', async () => {
    const { model, data, root } = await setup();
    const args = (out: string, ...more: string[]) => [
      'sft',
      '--model',
      model,
      '--data',
      data,
      '--out',
      out,
      '--train',
      'full',
      '--steps',
      '4',
      '--batch-size',
      '2',
      '--lr',
      '1e-2',
      '--save-every',
      '2',
      '--threads',
      '1',
      ...more,
    ];
    const whole = join(root, 'whole');
    const first = await runInProcess(args(whole));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/Wrote model folder \(--train full\)/);
    expect(first.stderr).toMatch(/--train full: \d+ base weight tensors/);
    expect((await readdir(whole)).sort()).toContain('checkpoint-2');
    expect((await readdir(join(whole, 'checkpoint-2'))).sort()).toEqual([
      'config.json',
      'generation_config.json',
      'model.safetensors',
      'optimizer.safetensors',
      'tokenizer.json',
      'tokenizer_config.json',
      'trainer_state.json',
    ]);

    const resumed = join(root, 'resumed');
    const second = await runInProcess(args(resumed, '--resume', join(whole, 'checkpoint-2')));
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/resumed from .*checkpoint-2 at step 2 of 4/);
    expect(second.stderr).not.toMatch(/^step +[12]\//m);
    const bytes = (dir: string) => readFile(join(dir, 'model.safetensors'));
    expect((await bytes(resumed)).equals(await bytes(whole))).toBe(true);
    // Its metrics.jsonl holds the steps it took, with the losses the uninterrupted run had.
    const rows = async (dir: string) =>
      (await readFile(join(dir, 'metrics.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { step: number; metrics: Record<string, number> })
        .map((r) => [r.step, r.metrics['loss']]);
    expect(await rows(resumed)).toEqual((await rows(whole)).slice(2));
    // Resumed into the run's own --out, it keeps the rows through the checkpoint and writes the rest once.
    const again = await runInProcess(args(whole, '--resume', join(whole, 'checkpoint-2')));
    expect(again.code, again.stderr).toBe(0);
    expect((await rows(whole)).map(([step]) => step)).toEqual([1, 2, 3, 4]);

    // A run with other settings cannot continue the checkpoint exactly: refused, naming the difference.
    const other = await runInProcess([
      ...args(join(root, 'other'), '--resume', join(whole, 'checkpoint-2')),
      '--seed',
      '5',
    ]);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/saved by a run with seed 0, this run has 5/);
    // Nor can one that trains on other examples, though its step counts match.
    const weighted = await runInProcess([
      ...args(join(root, 'weighted'), '--resume', join(whole, 'checkpoint-2')),
      '--prompt-loss-weight',
      '0.5',
    ]);
    expect(weighted.code).toBe(2);
    expect(weighted.stderr).toMatch(/trained on other examples; pass the same --data, --prompt-loss-weight/);
  });

  it.each([
    ['lora', 'adapter_model.safetensors'],
    ['lora,embeddings,head', 'model.safetensors'],
  ])('--train %s: a resumed run ends bitwise where an uninterrupted one does', async (train, file) => {
    const { model, data, root } = await setup();
    const args = (out: string, ...more: string[]) => [
      'sft',
      '--model',
      model,
      '--data',
      data,
      '--out',
      out,
      '--train',
      train,
      '--rank',
      '2',
      '--steps',
      '4',
      '--batch-size',
      '2',
      '--lr',
      '1e-2',
      '--save-every',
      '2',
      '--threads',
      '1',
      ...more,
    ];
    const whole = join(root, 'whole');
    expect((await runInProcess(args(whole))).code).toBe(0);
    const resumed = join(root, 'resumed');
    const second = await runInProcess(args(resumed, '--resume', join(whole, 'checkpoint-2')));
    expect(second.code, second.stderr).toBe(0);
    const bytes = (dir: string) => readFile(join(dir, file));
    expect((await bytes(resumed)).equals(await bytes(whole))).toBe(true);
    // Not trivially equal: the steps after the checkpoint changed the tensors.
    expect((await readFile(join(whole, 'checkpoint-2', file))).equals(await bytes(resumed))).toBe(false);
  });

  it('refuses a checkpoint folder without trainer state', async () => {
    const { model: dir } = await setup();
    const model = await loadTrainingModel(dir);
    const run = { train: 'full', seed: 0, totalSteps: 4, sequencesPerStep: 2 };
    await expect(loadSftCheckpoint(dir, model, FULL, run)).rejects.toThrow(/no readable trainer_state.json/);
  });
});
