import { afterEach, describe, expect, it } from 'vitest';
import { loopHarness, type Cleanup } from '../rl/loop-harness.js';
import { FIXED_EDITS, applyEdit, randomEdit, type HostileEdit } from './hostile-groups.js';
import { Rng, fuzzSeed } from './rng.js';

// Hostile groups through the GRPO loop on a real Redis and a real learner (onnxruntime): every
// other group the stand-in workers finish is rewritten with one hostile edit (fixed cases, then
// seeded random ones; FUZZ_SEED=<n> replays another seed). The learner must keep updating, count
// each one bad with its reason, and keep the accounting balanced.
const cleanups: Cleanup[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const seed = fuzzSeed();
const CONTEXT = 256;

describe(`hostile trajectory groups (seed ${seed})`, () => {
  it('are counted bad with the reason and never stop the learner', async () => {
    const rng = new Rng(seed);
    const edits: [string, HostileEdit][] = [
      ...Object.entries(FIXED_EDITS),
      ...Array.from({ length: 10 }, () => randomEdit(rng)),
    ];
    const hostile = new Map<string, string>();
    let vocab = 0;
    const s = await loopHarness(
      // Every group kept in Redis (not the last 32): the failed jobs are read back below.
      {
        maxStaleness: 1,
        maxInFlight: 4,
        maxSteps: edits.length + 2,
        model: { maxPositionEmbeddings: CONTEXT },
        keepGroups: 100_000,
      },
      {
        corrupt: (group) => {
          const serial = Number(group.group_id.split('-').at(-1));
          const edit = serial % 2 === 0 ? edits[serial / 2] : undefined;
          if (!edit) return group;
          hostile.set(group.group_id, edit[0]);
          return applyEdit(group, edit[1], vocab, CONTEXT);
        },
      },
      cleanups,
    );
    vocab = s.config.vocabSize;
    const counts = await s.loop.run(new AbortController().signal);
    expect(s.updates).toHaveLength(edits.length + 2);
    expect(hostile.size).toBe(edits.length);
    expect(counts.failed).toBe(0);
    expect(counts.bad).toBe(hostile.size);
    expect(counts.consumed + counts.dropped + counts.abandoned).toBe(counts.submitted);
    expect(counts.admitted + counts.stale + counts.rejected + counts.bad).toBe(counts.consumed);
    const failed = await s.trainerQueue.getJobs(['failed']);
    const reasons = new Map(failed.map((job) => [job.id!, job.failedReason]));
    for (const [id, name] of hostile) {
      expect(reasons.get(id), `${name} (${id})`).toMatch(/^(bad trajectory-group job|untrainable trajectory group) /);
      expect(
        s.logs.filter((line) => new RegExp(`${id}(?!\\d)`).test(line)),
        name,
      ).toHaveLength(1);
    }
  }, 300_000);
});
