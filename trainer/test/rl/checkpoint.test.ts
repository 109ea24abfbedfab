import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initLoraAdapter, type LoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { CheckpointStore } from '../../src/rl/checkpoint/index.js';
import type { TrainSequence } from '../../src/train/batch.js';
import { LoraTrainer } from '../../src/train/trainer.js';
import { tinyModel, withRandomB } from '../support/tiny-models.js';

const { config, weights } = tinyModel({ numLayers: 2 });
const lora = makeLoraConfig({ rank: 2, alpha: 8 });
const batches: TrainSequence[][] = [1, 2, 3].map((k) => [
  { tokens: [k, 20, 30, 40, 50 + k], mask: [0, 0, 1, 1, 1] },
  { tokens: [60, 70 + k, 80], mask: [0, 1, 1] },
]);

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

const create = (adapter: LoraAdapter) =>
  LoraTrainer.create({
    config,
    weights,
    lora,
    adapter,
    // Warmup then cosine: the next step's rate depends on the restored step count.
    schedule: { lr: 5e-2, warmupSteps: 2, decay: 'cosine', totalSteps: 10 },
    optimizer: { weightDecay: 0.01 },
    runtime: { intraOpNumThreads: 1 },
  });

const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const flat = (adapter: LoraAdapter) => [...adapter.modules.values()].flatMap((m) => [m.a.data, m.b.data]);

describe('CheckpointStore with a real LoraTrainer (onnxruntime, tiny model)', () => {
  it('a trainer restored from a checkpoint takes bitwise the step the uninterrupted one takes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-ckpt-'));
    const store = new CheckpointStore(dir, { keep: 2 });
    const uninterrupted = await create(withRandomB(initLoraAdapter(config, lora, 7), 7));
    let restored: LoraTrainer | undefined;
    try {
      await uninterrupted.trainStep(batches[0]!);
      await uninterrupted.trainStep(batches[1]!);
      const counters = { groups_dropped: 3, trajectories: 40 };
      const path = await store.save({
        step: uninterrupted.step,
        version: 2,
        adapter: uninterrupted.adapter,
        optimizer: uninterrupted.exportState(),
        rngState: [1, 2, 3, 4],
        config: { lr: 5e-2, tasks: { 'click-test': 1 } },
        curriculum: { 'click-test': { success: [1, 0, 1] } },
        counters,
        baseModel: '/models/tiny',
      });
      expect(path).toBe(join(dir, 'checkpoint-00000002'));
      const next = await uninterrupted.trainStep(batches[2]!);

      const loaded = (await store.latest())!;
      expect(loaded).toMatchObject({
        path,
        step: 2,
        version: 2,
        counters,
        rngState: [1, 2, 3, 4],
        baseModel: '/models/tiny',
      });
      const atSave = flat(loaded.adapter!).map((a) => a.slice());
      restored = await create(loaded.adapter!);
      restored.importState(loaded.optimizer);
      expect(restored.step).toBe(2);
      const again = await restored.trainStep(batches[2]!);
      expect(again.lr).toBe(next.lr);
      expect(again.loss).toBe(next.loss);
      expect(again.gradNorm).toBe(next.gradNorm);
      const [want, got] = [flat(uninterrupted.adapter), flat(restored.adapter)];
      want.forEach((w, i) => expect(bytes(got[i]!).equals(bytes(w)), `tensor ${i}`).toBe(true));
      // The step really moved the weights: the comparison is not of two unchanged copies.
      expect(atSave[1]).not.toEqual(want[1]);
    } finally {
      await uninterrupted.release();
      await restored?.release();
    }
  });
});
