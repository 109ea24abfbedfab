// The GRPO loop on the real stack, every part its own process started from its bin: Redis (the
// shared test instance, a fresh prefix), the env server, two rollout workers, and
// `gauntlet-trainer grpo` with the built-in tiny model serving its own versions in process. A
// few updates on click-test: versions advance, the workers' turns record them, and every group
// the trainer submitted is accounted for (consumed or dropped, counted).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsumedGroup } from '@gauntlet/proto/rollout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openViewSource } from '../../agent/src/view/view-source.js';
import { startEnvServer, type EnvServerProcess } from '../../rollout-worker/test/support/env-server.js';
import { ROOT, startProcess, type Started } from '../../rollout-worker/test/support/process.js';
import { freePort, freshConnection, removeQueues } from '../../rollout-worker/test/support/redis.js';
import { turnVersions } from './turn-versions.js';

const STEPS = 3;
const connection = freshConnection();
const output = mkdtempSync(join(tmpdir(), 'gauntlet-grpo-e2e-'));
const started: Started[] = [];
let env: EnvServerProcess;
let trainer: Started;
let trainerPort = 0;

/** `gauntlet-trainer grpo` as its own process, resolved once it has started its loop. */
const startTrainer = (extra: string[]) =>
  startProcess(
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
      String(trainerPort),
      '--prefix',
      connection.prefix,
      '--output-dir',
      output,
      ...extra,
    ],
    /^grpo: run e2e.*/,
    { timeoutMs: 120_000 },
  );

beforeAll(async () => {
  env = await startEnvServer(['--max-sessions', '8']);
  started.push(env);
  const port = await freePort();
  trainerPort = port;
  // An attempt that crashed before its first checkpoint left its rows behind. A container restarts
  // with the same command line, --resume included: the run starts afresh and drops those rows.
  writeFileSync(join(output, 'metrics.jsonl'), '{"step":1,"version":1,"time":1,"metrics":{"loss":9}}\n');
  trainer = await startTrainer(['--resume']);
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
}, 240_000);

afterAll(async () => {
  await Promise.allSettled(started.reverse().map((p) => p.stop()));
  await removeQueues(connection);
  rmSync(output, { recursive: true, force: true });
}, 120_000);

describe('gauntlet-trainer grpo on the real stack', () => {
  it('advances adapter versions, survives SIGINT and --resume, the workers record the versions per turn, and no group is lost', async () => {
    expect(trainer.output()).toMatch(/--resume: no checkpoint in .* yet; starting the run/);
    // Interrupted after its second update: it saves a checkpoint and exits 130.
    await trainer.waitFor(/^update 2 \(v2\)/, 150_000, true);
    trainer.child.kill('SIGINT');
    expect(await trainer.exited).toEqual({ code: 130, signal: null });
    expect(trainer.output()).toMatch(/checkpoint of update 2 saved .*\(interrupted\)/);
    expect(readdirSync(join(output, 'checkpoints'))).toContain('checkpoint-00000002');

    // Resumed: it takes over the groups the first process left and finishes the last update.
    trainer = await startTrainer(['--resume']);
    started.push(trainer);
    expect(trainer.ready[0]).toMatch(/resumed at update 2/);
    await trainer.waitFor(/^grpo: finished version 3/, 150_000, true);
    expect(await trainer.exited).toEqual({ code: 0, signal: null });

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
    expect(readdirSync(join(output, 'checkpoints'))).toContain('checkpoint-00000003');
    expect(readdirSync(join(output, 'final')).sort()).toEqual(['adapter_config.json', 'adapter_model.safetensors']);

    // Every group handed to a trainer is still in Redis (fewer than --keep-groups, 32): its turns name
    // the version that played them, and later groups were played by later versions.
    const versions = await turnVersions(connection, 'e2e');
    expect(Math.max(...versions)).toBeGreaterThanOrEqual(2);

    // The resumed process accounts for every group it submitted or took over.
    const counts = JSON.parse(/^grpo: groups (\{.*\})$/m.exec(trainer.output())![1]!) as Record<string, number>;
    expect(counts['adopted']).toBeGreaterThan(0);
    expect(counts['consumed']! + counts['dropped']! + counts['retired']! + counts['abandoned']! + counts['lost']!).toBe(
      counts['submitted']! + counts['adopted']!,
    );
    expect(counts['admitted']! + counts['stale']! + counts['rejected']!).toBe(counts['consumed']);
    expect(counts['rejected']).toBe(0);

    // --keep-trajectories (default 4): the last 4 groups consumed, with the version the trainer was
    // at and each token's text from the model's tokenizer; the viewer reads them.
    const keptPath = join(output, 'trajectories.jsonl');
    expect(trainer.ready[0]).toContain(`last 4 groups kept for gauntlet-agent view ${keptPath}`);
    const kept = readFileSync(keptPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => ConsumedGroup.parse(JSON.parse(line)));
    expect(kept).toHaveLength(4);
    for (const { group, trainer_version, token_texts } of kept) {
      expect(trainer_version).toBeGreaterThanOrEqual(group.policy.version!);
      const ids = group.trajectories.flatMap((t) =>
        t.turns.flatMap((turn) => [...turn.completion_ids, ...turn.env_ids]),
      );
      expect(ids.length).toBeGreaterThan(0);
      expect(Object.keys(token_texts!).sort()).toEqual([...new Set(ids.map(String))].sort());
    }
    const shown = openViewSource(keptPath).episodes();
    expect(shown).toHaveLength(4 * 2);
    const first = shown[0]!.turns[0]!.rollout!;
    expect(first.staleness).toBe(first.trainer_version! - first.version!);
    expect(first.tokens.every((t) => t.text !== null)).toBe(true);
  }, 330_000);
});
