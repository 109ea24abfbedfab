import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsumedGroup, QUEUES, type TrajectoryGroup } from '@gauntlet/proto/rollout';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../src/rl/checkpoint/index.js';
import { runTotals } from '../../src/rl/loop/loop-counters.js';
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
  it('max_staleness 0: a group played by the previous version is dropped and counted; versions advance; --keep-trajectories 2 keeps 2 groups', async () => {
    let open!: () => void;
    const updated = new Promise<void>((resolve) => (open = resolve));
    const dir = await mkdtemp(join(tmpdir(), 'gauntlet-loop-keep-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'trajectories.jsonl');
    const s = await setup(
      { maxStaleness: 0, maxInFlight: 2, maxSteps: 2, keep: { path, groups: 2, tokenText: (id) => `<${id}>` } },
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
    // More groups were consumed than kept: the file holds the newest 2, each with the version the
    // trainer was at when it took the group, and the admission that version implies.
    expect(counts.consumed).toBeGreaterThan(2);
    const kept = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => ConsumedGroup.parse(JSON.parse(line)));
    expect(kept).toHaveLength(2);
    for (const { group, trainer_version, admission, token_texts } of kept) {
      const staleness = trainer_version - group.policy.version!;
      expect(staleness).toBeGreaterThanOrEqual(0);
      expect(admission).toBe(staleness === 0 ? 'admitted' : 'stale');
      expect(token_texts).toEqual({ '65': '<65>', '66': '<66>' });
    }
    expect(new Set(kept.map((k) => k.group.group_id)).size).toBe(2);
    // The last update's version was reached by consuming at least one of them at v1 or later.
    expect(Math.max(...kept.map((k) => k.trainer_version))).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('--advantage gigpo: each update reports the anchor groups it found (both episodes start from one page)', async () => {
    const s = await setup({ maxStaleness: 1, maxInFlight: 2, maxSteps: 2, grpo: { advantage: 'gigpo' } }, {});
    await s.loop.run(new AbortController().signal);
    expect(s.updates).toHaveLength(2);
    for (const u of s.updates)
      expect(u.metrics).toMatchObject({
        'gigpo/anchor_groups': 1,
        'gigpo/anchor_group_size': 2,
        'gigpo/anchored_turns': 1,
      });
  }, 120_000);

  it('a group the workers drop is counted and said with its reason as it happens (one line per reason), and the run goes on', async () => {
    const s = await setup({ maxStaleness: 1, maxInFlight: 2, maxSteps: 2 }, { fails: (id) => /-[012]$/.test(id) });
    const counts = await s.loop.run(new AbortController().signal);
    expect(s.updates).toHaveLength(2);
    expect(counts.dropped).toBe(3);
    // The reason is the episode's (BullMQ puts only "child … failed" on the group); the three drops
    // share it, so the first is a line at once and the other two one line with their count.
    expect(s.logs.filter((line) => line.includes('dropped by the workers'))).toEqual([
      expect.stringMatching(/^grpo: group unit-\w+-[012] dropped by the workers: the env rejected this task$/),
      'grpo: 2 more group(s) dropped by the workers in the last 30 s: the env rejected this task',
    ]);
    expect(counts.consumed + counts.dropped + counts.abandoned).toBe(counts.submitted);
    expect(s.updates[0]!.metrics['staleness/max']).toBe(0);
  }, 120_000);

  it('keeps only the last --keep-groups finished groups in Redis: older ones go, trainer job, group and episodes', async () => {
    const s = await setup(
      { maxStaleness: 1, maxInFlight: 2, maxSteps: 6, keepGroups: 2 },
      { fails: (id) => id.endsWith('-1') },
    );
    const counts = await s.loop.run(new AbortController().signal);
    expect(counts.consumed + counts.dropped).toBeGreaterThanOrEqual(7);
    expect(counts.dropped).toBe(1);
    const jobs = async (name: string) => {
      const queue = new Queue(name, s.base);
      try {
        return (await queue.getJobs(['completed', 'failed', 'waiting', 'active', 'waiting-children', 'delayed'])).map(
          (j) => j.id!,
        );
      } finally {
        await queue.close();
      }
    };
    const kept = await jobs(QUEUES.groups);
    expect(kept).toHaveLength(2);
    expect((await jobs(QUEUES.trajectoryGroups)).every((id) => kept.includes(id))).toBe(true);
    // Two episodes a group: only the kept groups' episodes are left.
    const episodes = await jobs(QUEUES.episodes);
    expect(episodes.map((id) => id.slice(0, id.lastIndexOf('.'))).every((id) => kept.includes(id))).toBe(true);
    expect(episodes).toHaveLength(4);
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

  it("a resumed run's curves go on from its checkpoint's running totals, never from 0", async () => {
    const before = { submitted: 40, dropped: 3, stale: 2, bad: 1, foreign: 0, rejected: 0, failed: 1 };
    const s = await setup({ maxStaleness: 1, maxInFlight: 2, maxSteps: 2, totalsBefore: before }, {});
    const counts = await s.loop.run(new AbortController().signal);
    const last = s.updates.at(-1)!.metrics;
    expect(counts.submitted).toBeGreaterThan(0);
    expect(last['groups/submitted']).toBe(40 + counts.submitted);
    expect(last['groups/dropped']).toBe(3 + counts.dropped);
    expect(last['groups/failed']).toBe(1 + counts.failed);
    expect(s.loop.totals()).toEqual(runTotals(counts, before));
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

  it('an episode played late (re-run after a worker was killed or Redis was away) still finds its version while its group is admissible', async () => {
    const opened = (count: number) => {
      let open!: () => void;
      let left = count;
      const promise = new Promise<void>((resolve) => (open = resolve));
      const tick = () => {
        if (--left === 0) open();
      };
      return { promise, tick };
    };
    const firstUpdate = opened(1);
    const latePlayed = opened(2);
    let lateError: Error | undefined;
    const serial = (id: string) => Number(id.split('-').at(-1));
    const s = await setup(
      { maxStaleness: 1, maxInFlight: 2, maxSteps: 2, served: true },
      {
        // Group 1 (version 0) is played only once version 1 is out, as a stalled episode re-run
        // later is; the groups after it wait for its two episodes, so the second update is its.
        holds: (id) => (serial(id) === 1 ? firstUpdate.promise : serial(id) >= 2 ? latePlayed.promise : undefined),
        played: (id, error) => {
          if (serial(id) !== 1) return;
          lateError ??= error;
          latePlayed.tick();
        },
      },
    );
    s.onUpdate.push(() => firstUpdate.tick());
    const counts = await s.loop.run(new AbortController().signal);
    expect(lateError).toBeUndefined();
    expect(counts.dropped).toBe(0);
    expect(counts.consumed + counts.dropped + counts.abandoned).toBe(counts.submitted);
    expect(s.updates.map((u) => u.metrics['staleness/max'])).toEqual([0, 1]);
    expect(s.logs.filter((line) => line.includes('does not exist'))).toEqual([]);
    // The window moved on: version 0 is unloaded now that no admissible group can ask for it.
    expect(s.registry.list().map((l) => l.name)).toEqual(['unit@v1', 'unit@v2']);
  }, 120_000);

  it('a group played after its version was retired (the learner moved on while it waited) is counted stale, never a drop', async () => {
    let open!: () => void;
    const updated = new Promise<void>((resolve) => (open = resolve));
    const s = await setup(
      { maxStaleness: 0, maxInFlight: 2, maxSteps: 2, served: true },
      // Group 1 (version 0) is played only once version 1 is out: with max_staleness 0 the server keeps v1 alone.
      { holds: (id) => (id.endsWith('-1') ? updated : undefined) },
    );
    s.onUpdate.push(() => open());
    const counts = await s.loop.run(new AbortController().signal);
    expect(s.updates).toHaveLength(2);
    expect(counts.dropped).toBe(0);
    expect(counts.retired).toBeGreaterThanOrEqual(1);
    expect(counts.consumed + counts.dropped + counts.retired + counts.abandoned).toBe(counts.submitted);
    expect(s.updates[1]!.metrics['groups/stale']).toBeGreaterThanOrEqual(1);
    expect(s.logs.filter((line) => line.includes('dropped by the workers'))).toEqual([]);
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
