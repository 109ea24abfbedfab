import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrajectoryGroup } from '@gauntlet/proto/rollout';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../src/rl/checkpoint/index.js';
import { checkpointOf } from '../../src/rl/loop/run-checkpoint.js';
import { InProcessPublisher } from '../../src/rl/serving/in-process.js';
import { AdapterRegistry } from '../../src/serve/adapters.js';
import { loopHarness, type Cleanup, type HarnessOptions, type Script } from './loop-harness.js';

const cleanups: Cleanup[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});
const setup = (options: HarnessOptions, script: Script) => loopHarness(options, script, cleanups);

/** The group with its first episode's first turn rewritten (completion ids and log-probs kept aligned). */
function withCompletion(group: TrajectoryGroup, ids: number[]): TrajectoryGroup {
  const [first, ...rest] = group.trajectories;
  const [turn0, ...turns] = first!.turns;
  const turn = { ...turn0!, completion_ids: ids, logprobs: ids.map(() => -1) };
  return { ...group, trajectories: [{ ...first!, turns: [turn, ...turns] }, ...rest] };
}

describe('GrpoLoop', () => {
  it('max_staleness 0: a group played by the previous version is dropped and counted; versions advance', async () => {
    let open!: () => void;
    const updated = new Promise<void>((resolve) => (open = resolve));
    const s = await setup(
      { maxStaleness: 0, maxInFlight: 2, maxSteps: 2 },
      // The second group of version 0 is held until the first update is done: it arrives one version late.
      { holds: (id) => (id.endsWith('-1') ? updated : undefined) },
    );
    s.onUpdate.push(() => open());
    const counts = await s.loop.run(new AbortController().signal);
    expect(s.updates.map((u) => u.version)).toEqual([1, 2]);
    expect(s.loop.version).toBe(2);
    expect(counts.stale).toBeGreaterThanOrEqual(1);
    expect(counts.consumed + counts.dropped + counts.abandoned).toBe(counts.submitted);
    expect(counts.admitted + counts.stale + counts.rejected).toBe(counts.consumed);
    // Only the last max_staleness + 1 versions stay served.
    expect(s.registry.list().map((l) => l.name)).toEqual(['unit@v2']);
  }, 120_000);

  it('a group the workers drop is counted, and the run goes on', async () => {
    const s = await setup({ maxStaleness: 1, maxInFlight: 2, maxSteps: 2 }, { fails: (id) => id.endsWith('-0') });
    const counts = await s.loop.run(new AbortController().signal);
    expect(s.updates).toHaveLength(2);
    expect(counts.dropped).toBe(1);
    expect(counts.consumed + counts.dropped + counts.abandoned).toBe(counts.submitted);
    expect(s.updates[0]!.metrics['staleness/max']).toBe(0);
  }, 120_000);

  it('a token id outside the vocabulary or a sequence past the context is counted bad with the reason, never trained, and the run goes on', async () => {
    // A 64-token context: a 100-token prompt is past it, and small enough not to hurt the engine if it got through.
    const s = await setup(
      { maxStaleness: 1, maxInFlight: 2, maxSteps: 2, model: { maxPositionEmbeddings: 64 } },
      {
        corrupt: (g) =>
          g.group_id.endsWith('-0')
            ? withCompletion(g, [65, 1e9])
            : g.group_id.endsWith('-1')
              ? {
                  ...g,
                  trajectories: g.trajectories.map((t) => ({ ...t, prompt_ids: new Array<number>(100).fill(7) })),
                }
              : g,
      },
    );
    const counts = await s.loop.run(new AbortController().signal);
    expect(s.updates.map((u) => u.version)).toEqual([1, 2]);
    expect(counts.bad).toBe(2);
    expect(counts.failed).toBe(0);
    expect(counts.consumed + counts.dropped + counts.abandoned).toBe(counts.submitted);
    expect(counts.admitted + counts.stale + counts.rejected + counts.bad).toBe(counts.consumed);
    expect(s.logs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/-0 episode .*completion_ids\[1\] is 1000000000, outside the vocabulary \[0, \d+\)/),
        expect.stringMatching(/-1 episode .*sequence of 102 tokens is longer than the limit of 64/),
      ]),
    );
    // Kept failed in Redis with the reason, for a look.
    const job = (await s.trainerQueue.getJobs(['failed'])).find((j) => j.id!.endsWith('-0'));
    expect(job?.failedReason).toMatch(/outside the vocabulary/);
    expect(s.updates.at(-1)!.metrics['groups/bad']).toBe(2);
  }, 120_000);

  it('an engine error on one batch drops that batch, logged once with the reason, and the run goes on', async () => {
    // Limits wider than the model's let a bad id reach the engine, which refuses it.
    const s = await setup(
      { maxStaleness: 1, maxInFlight: 2, maxSteps: 2, limits: { vocabSize: 2 ** 31, maxSequenceTokens: 4096 } },
      { corrupt: (g) => (g.group_id.endsWith('-0') ? withCompletion(g, [65, 1e9]) : g) },
    );
    const counts = await s.loop.run(new AbortController().signal);
    expect(s.updates.map((u) => u.version)).toEqual([1, 2]);
    expect(counts.failed).toBe(1);
    expect(counts.bad).toBe(0);
    const failures = s.logs.filter((line) => line.includes('failed in the engine'));
    expect(failures).toEqual([
      expect.stringMatching(/-0 failed in the engine: .*outside the vocabulary.*batch dropped/),
    ]);
    expect(s.updates.at(-1)!.metrics['groups/failed']).toBe(1);
  }, 120_000);

  it('an engine that fails every batch stops the run after --max-failed-updates in a row', async () => {
    const s = await setup(
      {
        maxStaleness: 1,
        maxInFlight: 2,
        maxSteps: 3,
        limits: { vocabSize: 2 ** 31, maxSequenceTokens: 4096 },
        maxFailedUpdates: 2,
      },
      { corrupt: (g) => withCompletion(g, [65, 1e9]) },
    );
    await expect(s.loop.run(new AbortController().signal)).rejects.toThrow(/2 updates in a row failed; the last: /);
    expect(s.updates).toHaveLength(0);
  }, 120_000);

  it('a checkpoint keeps the earlier versions groups in flight may ask for; a resumed server serves them again', async () => {
    const s = await setup({ maxStaleness: 1, maxInFlight: 2, maxSteps: 2 }, {});
    await s.loop.run(new AbortController().signal);
    const dir = await mkdtemp(join(tmpdir(), 'gauntlet-loop-ckpt-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const store = new CheckpointStore(dir);
    await store.save(
      checkpointOf(s.loop, { learner: s.learner, sampler: s.sampler, config: { run: 'unit' }, baseModel: 'tiny' }),
    );
    const checkpoint = (await store.latest())!;
    expect(checkpoint.earlier.map((e) => e.version)).toEqual([1]);

    // The resumed process's server: before this, it held only the checkpoint's version, and an
    // episode of a group still in flight at v1 got a 404 and its whole group was dropped.
    const registry = new AdapterRegistry('tiny', s.config);
    const publisher = new InProcessPublisher(registry, 'unit', 2);
    publisher.restore(checkpoint.earlier);
    publisher.publish(checkpoint.version, checkpoint);
    expect(publisher.loaded()).toEqual([1, 2]);
    for (const name of ['unit@v1', 'unit@v2']) expect(registry.resolve(name), name).toEqual(s.registry.resolve(name));
  }, 120_000);
});
