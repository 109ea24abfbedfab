// The GRPO loop on the real stack, every part its own process started from its bin: Redis (the
// shared test instance, a fresh prefix), the env server, two rollout workers, and
// `gauntlet-trainer grpo` with the built-in tiny model serving its own versions in process. A
// few updates on click-test: versions advance, the workers' turns record them, and every group
// the trainer submitted is accounted for (consumed or dropped, counted).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUEUES, TrajectoryGroup } from '@gauntlet/proto/rollout';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnvServer, type EnvServerProcess } from '../../rollout-worker/test/support/env-server.js';
import { ROOT, startProcess, type Started } from '../../rollout-worker/test/support/process.js';
import { freePort, freshConnection, removeQueues } from '../../rollout-worker/test/support/redis.js';

const STEPS = 3;
const connection = freshConnection();
const output = mkdtempSync(join(tmpdir(), 'gauntlet-grpo-e2e-'));
const started: Started[] = [];
let env: EnvServerProcess;
let trainer: Started;
let finished: Promise<unknown>;

beforeAll(async () => {
  env = await startEnvServer(['--max-sessions', '8']);
  started.push(env);
  const port = await freePort();
  trainer = await startProcess(
    process.execPath,
    [
      join(ROOT, 'trainer/bin/cli.js'),
      'grpo',
      '--task',
      'miniwob.click-test',
      '--run-name',
      'e2e',
      '--group-size',
      '2',
      '--groups-per-update',
      '2',
      '--max-steps',
      String(STEPS),
      '--max-turns',
      '2',
      '--max-tokens',
      '8',
      '--lr',
      '1e-3',
      '--threads',
      '1',
      '--port',
      String(port),
      '--prefix',
      connection.prefix,
      '--output-dir',
      output,
    ],
    /^grpo: run e2e/,
    { timeoutMs: 120_000 },
  );
  started.push(trainer);
  for (const name of ['w1', 'w2'])
    started.push(
      await startProcess(
        process.execPath,
        [
          join(ROOT, 'rollout-worker/bin/cli.js'),
          'run',
          '--no-metrics',
          '--env',
          env.grpc,
          '--policy',
          `http://127.0.0.1:${port}`,
          '--prefix',
          connection.prefix,
          '--concurrency',
          '2',
          '--name',
          name,
        ],
        /^worker ready/,
      ),
    );
  finished = trainer.exited;
}, 240_000);

afterAll(async () => {
  await Promise.allSettled(started.reverse().map((p) => p.stop()));
  await removeQueues(connection);
  rmSync(output, { recursive: true, force: true });
}, 120_000);

describe('gauntlet-trainer grpo on the real stack', () => {
  it('advances adapter versions, the workers record them per turn, and no group is lost', async () => {
    await trainer.waitFor(/^grpo: finished version/, 170_000, true);
    expect(await finished).toEqual({ code: 0, signal: null });

    const updates = readFileSync(join(output, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { version: number; metrics: Record<string, number | null> });
    expect(updates.map((u) => u.version)).toEqual([1, 2, 3]);
    for (const u of updates) {
      expect(Number.isFinite(u.metrics['loss'])).toBe(true);
      // Token-exact trajectories sampled with processed logprobs: the trainer scores what was sampled.
      expect(u.metrics['sampling/sampling_logp_difference/max']).toBeLessThan(1e-3);
    }
    // A checkpoint of the last update, and the final adapter as a PEFT folder.
    expect(readdirSync(join(output, 'checkpoints'))).toContain('checkpoint-00000003');
    expect(readdirSync(join(output, 'final')).sort()).toEqual(['adapter_config.json', 'adapter_model.safetensors']);

    // Every group handed to the trainer is still in Redis (finished jobs are kept): its turns name
    // the version that played them, and later groups were played by later versions.
    const queue = new Queue(QUEUES.trajectoryGroups, { connection: connection.redis, prefix: connection.prefix });
    const groups = (await queue.getJobs(['completed'])).map((job) => TrajectoryGroup.parse(job.data));
    await queue.close();
    const versions = new Set<number>();
    for (const group of groups)
      for (const t of group.trajectories)
        for (const turn of t.turns) {
          expect(turn.policy.adapter).toBe(`e2e@v${turn.policy.version}`);
          expect(turn.policy.model).toBe(turn.policy.adapter);
          versions.add(turn.policy.version!);
        }
    expect(Math.max(...versions)).toBeGreaterThanOrEqual(1);

    const counts = JSON.parse(/^grpo: groups (\{.*\})$/m.exec(trainer.output())![1]!) as Record<string, number>;
    expect(counts['submitted']).toBeGreaterThanOrEqual(STEPS * 2);
    expect(counts['consumed']! + counts['dropped']! + counts['abandoned']!).toBe(counts['submitted']);
    expect(counts['admitted']! + counts['stale']! + counts['rejected']!).toBe(counts['consumed']);
    expect(counts['rejected']).toBe(0);
    expect(groups).toHaveLength(counts['consumed']!);
  }, 200_000);
});
