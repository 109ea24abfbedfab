import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTokenizerFiles } from '../../src/model/model-folder.js';
import { writeTinyModel } from '../../src/model/tiny.js';
import { loadModel } from '../../src/model/weights.js';
import { CheckpointStore } from '../../src/rl/checkpoint/index.js';
import { checkpointOf, restoreRun } from '../../src/rl/loop/run-checkpoint.js';
import { defaultProbe, PublishTarget, trainerProbe, type ProbeExpectation } from '../../src/rl/publish/index.js';
import { InProcessPublisher } from '../../src/rl/serving/in-process.js';
import { modelFolderWriter } from '../../src/rl/serving/model-folders.js';
import { startRunServer } from '../../src/rl/serving/run-server.js';
import { Curriculum } from '../../src/rl/curriculum/curriculum.js';
import { TaskSampler } from '../../src/rl/curriculum/task-sampler.js';
import type { ServeContext } from '../../src/serve/context.js';
import { createServeContext } from '../../src/serve/create.js';
import { AdapterRegistry } from '../../src/serve/adapters.js';
import { makeLoraConfig } from '../../src/lora/config.js';
import { grpoStep, GrpoLearner, type GrpoSample } from '../../src/train/grpo/index.js';
import { FULL, trainedWeightNames } from '../../src/train/trainable.js';
import { loopHarness, type Cleanup } from './loop-harness.js';

// GRPO with --train full end to end on one machine: a real Redis loop (stand-in rollouts), the
// learner on onnxruntime, and the run's own policy server (the cached generation graph with the
// trained weights as inputs) answering over HTTP, as the workers reach it.
const cleanups: Cleanup[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gauntlet-grpo-full-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function serve(ctx: ServeContext): Promise<PublishTarget> {
  cleanups.push(() => ctx.close());
  const server = await startRunServer({ metrics: async () => '', others: [] }, ctx, 0, '127.0.0.1');
  cleanups.push(() => server.close());
  return new PublishTarget({ url: server.url }, 30_000);
}

const flat = (learner: GrpoLearner) => [...learner.trainer.trainedWeights.values()].flatMap((w) => [...w.data]);

describe('grpo --train full', () => {
  it('serves each version with its own weights, writes a model folder per version, and resumes bitwise', async () => {
    const dir = await tempDir();
    const modelDir = join(dir, 'tiny');
    await writeTinyModel(modelDir, { seed: 3, numLayers: 1, hiddenSize: 32, intermediateSize: 48 });
    const { config, weights } = await loadModel(modelDir);
    const fed = trainedWeightNames(config, FULL);
    const ctx = await createServeContext({
      modelDir,
      servedModelName: 'tiny',
      logprobsMode: 'processed_logprobs',
      fedWeights: fed,
      log: () => undefined,
    });
    const server = await serve(ctx);
    const probe = defaultProbe(ctx.tokenizer);
    const versionsDir = join(dir, 'versions');
    const expected = new Map<number, ProbeExpectation>();
    const s = await loopHarness(
      {
        maxStaleness: 2,
        maxInFlight: 2,
        maxSteps: 2,
        loaded: { config, weights },
        train: FULL,
        registry: ctx.adapters,
        alsoWrite: modelFolderWriter({
          dir: versionsDir,
          run: 'unit',
          keep: 3,
          source: { config, tokenizerFiles: await readTokenizerFiles(modelDir) },
          base: weights,
          baseModel: modelDir,
          log: () => undefined,
        }),
      },
      {},
      cleanups,
    );
    expect(s.learner.trainer.trainsAdapter).toBe(false);
    // Taken right after each version is published: the trainer's own forward with those weights.
    expected.set(0, await trainerProbe(s.learner, probe));
    s.onUpdate.push(async (u) => void expected.set(u.version, await trainerProbe(s.learner, probe)));
    await s.loop.run(new AbortController().signal);
    expect(s.updates.map((u) => u.version)).toEqual([1, 2]);

    for (const version of [0, 1, 2]) {
      const served = await server.compareProbe(`unit@v${version}`, expected.get(version)!);
      expect(served.maxAbsDiff, `unit@v${version}`).toBeLessThan(1e-5);
    }
    // Each version really moved the policy: v1 served differs from v0 by far more than the tolerance.
    expect((await server.compareProbe('unit@v0', expected.get(1)!)).maxAbsDiff).toBeGreaterThan(1e-3);
    expect((await server.compareProbe('unit@v1', expected.get(2)!)).maxAbsDiff).toBeGreaterThan(1e-3);
    // The base model's name still serves the weights before training.
    expect(expected.get(0)!.logprobs).toEqual(expected.get(2)!.baseLogprobs);

    // The folder written for v1 is a model that serve loads, to the same log-probs.
    expect((await readdir(versionsDir)).sort()).toEqual(['unit@v0', 'unit@v1', 'unit@v2']);
    const folder = await serve(await createServeContext({ modelDir: join(versionsDir, 'unit@v1'), log: () => {} }));
    const reloaded = await folder.compareProbe('unit@v1', expected.get(1)!);
    expect(reloaded.maxAbsDiff).toBeLessThan(1e-5);

    // A checkpoint holds every trained tensor (and the earlier versions'): a resumed learner takes the same next step, bit for bit.
    const store = new CheckpointStore(join(dir, 'checkpoints'));
    const parts = { learner: s.learner, sampler: s.sampler, config: { run: 'unit' }, baseModel: modelDir };
    await store.save(checkpointOf(s.loop, parts));
    const checkpoint = (await store.latest())!;
    expect(checkpoint.adapter).toBeUndefined();
    expect([...checkpoint.weights!.keys()].sort()).toEqual([...fed].sort());
    expect(checkpoint.earlier.map((e) => e.version)).toEqual([0, 1]);
    // A resumed server serves the earlier versions again: exactly what this one serves.
    const registry = new AdapterRegistry('tiny', config, 64, undefined, undefined, {
      names: fed,
      base: new Map(fed.map((n) => [n, weights.get(n)!])),
    });
    new InProcessPublisher(registry, 'unit', 3).restore(checkpoint.earlier);
    expect(registry.resolve('unit@v1')).toEqual(ctx.adapters.resolve('unit@v1'));

    const resumed = await GrpoLearner.create({
      config,
      weights,
      lora: makeLoraConfig({ rank: 2 }),
      train: FULL,
      trained: checkpoint.weights!,
      schedule: { lr: 1e-2 },
      runtime: { intraOpNumThreads: 1 },
      grpo: { samplerCorrection: null },
    });
    cleanups.push(() => resumed.release());
    restoreRun(checkpoint, {
      learner: resumed,
      sampler: new TaskSampler([{ name: 'miniwob.click-test', weight: 1 }], new Curriculum(), 0),
    });
    expect(flat(resumed)).toEqual(flat(s.learner));
    const batch: GrpoSample[] = [0, 1, 2, 3].map((i) => ({
      promptIds: [1, 2, 3],
      completionIds: [10 + i, 20, 30],
      samplerLogprobs: [-1, -1, -2],
      envMask: [1, 1, 1],
      group: `g-${i % 2}`,
      reward: i % 2,
    }));
    await grpoStep(s.learner, batch);
    await grpoStep(resumed, batch);
    expect(flat(resumed)).toEqual(flat(s.learner));
    expect(resumed.trainer.exportState()).toEqual(s.learner.trainer.exportState());
  }, 180_000);
});
