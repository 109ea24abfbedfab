// A group whose policy version the server already unloaded (the learner moved past it while the
// group waited for a worker) is stale, not failed: the worker says so and counts it apart, and
// the reason it leaves on the queue tells the learner. Real processes: `gauntlet-trainer serve`
// with two adapter versions loaded, a real env server, a real worker, the shared Redis.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isRetiredVersionReason } from '@gauntlet/proto/rollout';
import { GroupSubmitter, GroupTracker, type GroupFate } from '@gauntlet/proto/rollout/queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnvServer } from '../../rollout-worker/test/support/env-server.js';
import { ROOT, startProcess, type Started } from '../../rollout-worker/test/support/process.js';
import { freshConnection, removeQueues } from '../../rollout-worker/test/support/redis.js';
import { groupInput } from '../../rollout-worker/test/support/rollout.js';
import { scrape } from '../../rollout-worker/test/support/scrape.js';
import { initLoraAdapter } from '../../trainer/src/lora/adapter.js';
import { makeLoraConfig } from '../../trainer/src/lora/config.js';
import { saveAdapter } from '../../trainer/src/lora/peft.js';
import { tinyModelConfig } from '../../trainer/src/model/tiny.js';

const connection = freshConnection();
const dir = mkdtempSync(join(tmpdir(), 'gauntlet-retired-'));
const started: Started[] = [];
let worker: Started;
let metricsUrl = '';

beforeAll(async () => {
  const adapters = await Promise.all(
    [2, 3].map(async (version) => {
      const path = join(dir, `v${version}`);
      await saveAdapter(path, initLoraAdapter(tinyModelConfig(), makeLoraConfig({ rank: 2 }), version), {
        baseModelNameOrPath: 'tiny',
      });
      return `run@v${version}=${path}`;
    }),
  );
  const [env, serve] = await Promise.all([
    startEnvServer(),
    startProcess(
      process.execPath,
      [join(ROOT, 'trainer/bin/cli.js'), 'serve', '--port', '0', '--threads', '1', '--adapter', adapters.join(',')],
      / at (http:\/\/[\d.]+:\d+)/,
      { timeoutMs: 120_000 },
    ),
  ]);
  started.push(env, serve);
  worker = await startProcess(
    process.execPath,
    [
      join(ROOT, 'rollout-worker/bin/cli.js'),
      'run',
      '--metrics-port',
      '0',
      '--env',
      env.grpc,
      '--policy',
      serve.ready[1]!,
      '--prefix',
      connection.prefix,
    ],
    /^worker ready.*; metrics (http:\/\/\S+)$/,
  );
  started.push(worker);
  metricsUrl = worker.ready[1]!;
}, 240_000);

afterAll(async () => {
  await Promise.allSettled(started.reverse().map((p) => p.stop()));
  await removeQueues(connection);
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Submits the groups and resolves with each one's fate and the reason it left. */
async function play(
  groups: ReturnType<typeof groupInput>[],
): Promise<Map<string, { fate: GroupFate; reason: string }>> {
  const tracker = new GroupTracker(connection);
  const submitter = new GroupSubmitter(connection, { attempts: 2, backoffMs: 100, keepSeconds: 600 });
  try {
    await tracker.ready();
    const fates = new Map<string, { fate: GroupFate; reason: string }>();
    const all = new Promise<void>((resolve) =>
      tracker.onFinished((id, fate) => {
        void (fate === 'dropped' ? tracker.dropReason(id) : Promise.resolve('')).then((reason) => {
          fates.set(id, { fate, reason });
          if (fates.size === groups.length) resolve();
        });
      }),
    );
    for (const group of groups) await submitter.submit(group);
    await all;
    return fates;
  } finally {
    await Promise.allSettled([tracker.close(), submitter.close()]);
  }
}

describe('a group whose policy version was retired', () => {
  it('is stale, not dropped: said and counted apart, with a reason the learner can tell; a name that was never served still fails', async () => {
    const settings = { max_turns: 2, deadline_ms: 120_000, sampling: { max_tokens: 8, seed: 5 } };
    const fates = await play([
      groupInput('retired', 2, { policy: { model: 'tiny', adapter: 'run@v1', version: 1 }, settings }),
      groupInput('served', 2, { policy: { model: 'tiny', adapter: 'run@v3', version: 3 }, settings }),
      groupInput('typo', 1, { policy: { model: 'tiny', adapter: 'nurun@v1', version: 1 }, settings }),
    ]);
    expect(fates.get('served')).toEqual({ fate: 'completed', reason: '' });
    const retired = fates.get('retired')!;
    expect(retired.fate).toBe('dropped');
    expect(isRetiredVersionReason(retired.reason)).toBe(true);
    expect(retired.reason).toMatch(/run@v1 is no longer served .*run@v2, run@v3/);
    const typo = fates.get('typo')!;
    expect(isRetiredVersionReason(typo.reason)).toBe(false);
    expect(typo.reason).toMatch(/The model `nurun@v1` does not exist/);

    await worker.waitFor(/^group typo dropped: /, 30_000, true);
    await worker.waitFor(/^group retired is stale, not handed to the trainer: /, 30_000, true);
    const lines = worker.output().split('\n');
    expect(
      lines.filter((l) => /^(group|episode) retired\S* (dropped|failed for good|will be retried)/.test(l)),
    ).toEqual([]);
    expect(await scrape(metricsUrl, 'gauntlet_worker_groups_stale_total')).toBe(1);
    expect(await scrape(metricsUrl, 'gauntlet_worker_groups_dropped_total')).toBe(1);
  }, 180_000);

  it('submit --wait reports such a group as stale, apart from the dropped ones, and exits 1 (not every group completed)', async () => {
    const submit = await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'rollout-worker/bin/cli.js'),
        'submit',
        '--prefix',
        connection.prefix,
        '--task',
        'click-test',
        '--seeds',
        '1',
        '--group-size',
        '1',
        '--max-turns',
        '2',
        '--max-tokens',
        '8',
        '--model',
        'tiny',
        '--adapter',
        'run@v0',
        '--policy-version',
        '0',
        '--id-prefix',
        'cli',
        '--wait',
      ],
      { cwd: ROOT },
    ).then(
      () => expect.fail('submit --wait exited 0 with a stale group'),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(submit.code).toBe(1);
    expect(JSON.parse(submit.stdout)).toMatchObject({ completed: 0, dropped: 0, dropped_ids: [], stale: 1 });
    expect(submit.stderr).toMatch(/groups 1\/1 finished: 0 completed, 0 dropped, 1 stale \(policy version retired\)/);
  }, 120_000);

  it('status counts the groups above apart: one dropped (the name never served), two stale (both retired versions)', async () => {
    const status = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'rollout-worker/bin/cli.js'), 'status', '--prefix', connection.prefix, '--json'],
      { cwd: ROOT },
    );
    expect(JSON.parse(status.stdout).groups).toEqual({ in_flight: 0, completed: 1, dropped: 1, stale: 2 });
  }, 60_000);
});
