import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initLoraAdapter, type LoraAdapter } from '../../src/lora/adapter.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { CheckpointStore } from '../../src/rl/checkpoint/index.js';
import { Curriculum } from '../../src/rl/curriculum/curriculum.js';
import { TaskSampler } from '../../src/rl/curriculum/task-sampler.js';
import { runTotals, zeroCounts } from '../../src/rl/loop/loop-counters.js';
import { checkpointOf, restoreRun } from '../../src/rl/loop/run-checkpoint.js';
import { grpoStep, GrpoLearner, type GrpoSample } from '../../src/train/grpo/index.js';
import { tinyModel, withRandomB } from '../support/tiny-models.js';

// The grpo command's checkpoint glue on a real learner (onnxruntime, tiny model): what a
// checkpoint of the run holds puts a fresh learner, task sampler and curriculum back exactly.
const { config, weights } = tinyModel({ numLayers: 2 });
const lora = makeLoraConfig({ rank: 2, alpha: 8 });
const tasks = [
  { name: 'miniwob.click-test', weight: 1 },
  { name: 'gauntlet.gauntlet', weight: 2 },
];
const batch = (k: number): GrpoSample[] =>
  [0, 1, 2, 3].map((i) => ({
    promptIds: [1, 2, 3 + k],
    completionIds: [10 + i, 20, 30 + k],
    samplerLogprobs: [-1, 0, -2],
    envMask: [1, 0, 1],
    group: `g${k}-${i % 2}`,
    reward: i % 2 === 0 ? 1 : 0,
  }));
const learnerFrom = (adapter: LoraAdapter) =>
  GrpoLearner.create({
    config,
    weights,
    lora,
    adapter,
    schedule: { lr: 5e-2, warmupSteps: 1, decay: 'linear', totalSteps: 6 },
    runtime: { intraOpNumThreads: 1 },
  });
const flat = (adapter: LoraAdapter) => [...adapter.modules.values()].flatMap((m) => [...m.a.data, ...m.b.data]);

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('checkpointOf / restoreRun', () => {
  it('a resumed run takes the same next update and draws the same next groups', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-resume-'));
    const store = new CheckpointStore(dir);
    const curriculum = { ...new Curriculum().options, startStep: 5 };
    const first = await learnerFrom(withRandomB(initLoraAdapter(config, lora, 5), 5));
    const sampler = new TaskSampler(tasks, new Curriculum(curriculum), 9);
    let resumed: GrpoLearner | undefined;
    try {
      await grpoStep(first, batch(0));
      await grpoStep(first, batch(1));
      sampler.next();
      sampler.curriculum.record('gauntlet.gauntlet', Array(32).fill(true), 5);
      const counts = { ...zeroCounts(), submitted: 4, consumed: 4, admitted: 4 };
      const parts = { learner: first, sampler, config: { run: 'r' }, baseModel: 'tiny' };
      const pending = { outstanding: [['r-abc-7', null]] as [string, number | null][], batch: [] };
      // This process went on from an earlier one's totals: the checkpoint keeps the sum for the next.
      const totals = runTotals(counts, { submitted: 10, dropped: 2 });
      await store.save(checkpointOf({ version: 2, counts, totals: () => totals, pending: () => pending }, parts));

      const checkpoint = (await store.latest())!;
      expect(checkpoint.version).toBe(2);
      expect(checkpoint.counters).toEqual({ counts, totals, pending });
      resumed = await learnerFrom(checkpoint.adapter!);
      const resumedSampler = new TaskSampler(tasks, new Curriculum(curriculum), 0);
      // The groups in flight at the checkpoint and the run's totals are handed to the resumed loop.
      expect(restoreRun(checkpoint, { learner: resumed, sampler: resumedSampler })).toEqual({
        pending,
        totals,
      });

      expect([resumedSampler.next(), resumedSampler.next()]).toEqual([sampler.next(), sampler.next()]);
      expect(resumedSampler.curriculum.resetOptions('gauntlet.gauntlet')).toEqual({ start_step: 4 });
      const [a, b] = [await grpoStep(first, batch(2)), await grpoStep(resumed, batch(2))];
      expect(b.metrics['learning_rate']).toBe(a.metrics['learning_rate']);
      expect(flat(resumed.trainer.adapter)).toEqual(flat(first.trainer.adapter));
    } finally {
      await first.release();
      await resumed?.release();
    }
  });

  it('a checkpoint whose state.json was edited is skipped; the run resumes from the one before', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gauntlet-resume-'));
    const logs: string[] = [];
    const store = new CheckpointStore(dir, { log: (line) => logs.push(line) });
    const learner = await learnerFrom(withRandomB(initLoraAdapter(config, lora, 5), 5));
    const sampler = new TaskSampler(tasks, new Curriculum(), 9);
    const parts = { learner, sampler, config: { run: 'r' }, baseModel: 'tiny' };
    const pending = () => ({ outstanding: [], batch: [] });
    try {
      await grpoStep(learner, batch(0));
      await store.save(
        checkpointOf({ version: 1, counts: zeroCounts(), totals: () => runTotals(zeroCounts()), pending }, parts),
      );
      await grpoStep(learner, batch(1));
      const second = await store.save(
        checkpointOf({ version: 2, counts: zeroCounts(), totals: () => runTotals(zeroCounts()), pending }, parts),
      );
      // The optimizer step drives the learning-rate schedule: an edit would resume on another rate.
      const file = join(second, 'state.json');
      const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      await writeFile(file, JSON.stringify({ ...json, optimizerStep: 5, version: 5 }, null, 2));

      const checkpoint = (await store.latest())!;
      expect(checkpoint.version).toBe(1);
      expect(checkpoint.optimizer.step).toBe(1);
      expect(logs).toEqual([expect.stringMatching(/checkpoint-00000002 skipped: .*do not match the sha256/)]);
    } finally {
      await learner.release();
    }
  });

  it('refuses a checkpoint that has no sampler state', async () => {
    const learner = { trainer: { importState: () => undefined } } as unknown as GrpoLearner;
    const checkpoint = { path: '/x', rngState: [1, 2], optimizer: {}, curriculum: {} } as never;
    expect(() => restoreRun(checkpoint, { learner, sampler: new TaskSampler(tasks, new Curriculum(), 0) })).toThrow(
      /rngState.sampler is missing/,
    );
  });
});
