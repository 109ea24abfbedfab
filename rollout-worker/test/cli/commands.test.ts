import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { QUEUES } from '@gauntlet/proto/rollout';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { EnvPool } from '../../src/env/env-pool.js';
import { PolicyPool } from '../../src/policies/policy-pool.js';
import { RolloutWorker } from '../../src/queue/rollout-worker.js';
import { startEnvServer, type EnvServerProcess } from '../support/env-server.js';
import { freePort, freshConnection, removeQueues } from '../support/redis.js';

// The commands a user types, run in-process against real Redis (fresh prefix) and a real env server.
let env: EnvServerProcess;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  env = await startEnvServer();
}, 150_000);
afterAll(async () => {
  await env?.stop();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** `eval` of the random policy against `env`, then `flags`. */
const randomEval = (env: string, ...flags: string[]) => ['eval', '--env', env, '--policy', 'random', ...flags];

async function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, new AbortController().signal);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('gauntlet-worker commands', () => {
  it('submit --wait follows its groups to the end; status reports the queues, the worker and the groups done', async () => {
    const connection = freshConnection();
    const envs = new EnvPool([env.grpc]);
    await envs.start();
    const worker = new RolloutWorker({
      connection,
      name: 'cli-test-worker',
      players: { envs, policies: new PolicyPool(['random']) },
      concurrency: 4,
    });
    cleanups.push(
      () => removeQueues(connection),
      () => envs.close(),
      () => worker.drain(0),
    );
    await worker.waitUntilReady();
    const queue = ['--prefix', connection.prefix];
    const submitted = await cli([
      'submit',
      ...queue,
      '--task',
      'click-test',
      '--seeds',
      '1-3',
      '--group-size',
      '2',
      '--max-turns',
      '3',
      '--max-in-flight',
      '2',
      '--id-prefix',
      'step5',
      '--wait',
    ]);
    expect(submitted.code).toBe(0);
    expect(JSON.parse(submitted.out)).toMatchObject({
      groups: 3,
      newly_submitted: 3,
      completed: 3,
      dropped: 0,
      dropped_ids: [],
    });
    expect(submitted.err).toMatch(/groups 3\/3 finished: 3 completed, 0 dropped/);
    // Submitting the same groups again plays nothing: they are known and already finished.
    const again = await cli([
      'submit',
      ...queue,
      '--task',
      'click-test',
      '--seeds',
      '1-3',
      '--group-size',
      '2',
      '--id-prefix',
      'step5',
      '--wait',
    ]);
    expect(JSON.parse(again.out)).toMatchObject({ groups: 3, newly_submitted: 0, completed: 3 });
    const status = await cli(['status', ...queue, '--json']);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.out);
    expect(report.groups).toEqual({ in_flight: 0, completed: 3, dropped: 0, stale: 0 });
    expect(report.queues.episodes.completed).toBe(6);
    expect(report.trainer_backlog).toBe(3);
    expect(report.workers.map((w: { name: string }) => w.name)).toContain('cli-test-worker');
    const table = await cli(['status', ...queue]);
    expect(table.out).toMatch(/gauntlet-episodes\s+0\s+0\s+0\s+0\s+6\s+0/);
    expect(table.out).toMatch(
      /groups: 0 in flight, 3 completed, 0 dropped, 0 stale \(policy version retired\); 3 waiting for the trainer/,
    );
  }, 150_000);

  it('submit takes Gauntlet challenge types: the ":" of gauntlet:<type> becomes "." in the group id; ids that would clash are refused', async () => {
    const connection = freshConnection();
    cleanups.push(() => removeQueues(connection));
    const queue = ['--prefix', connection.prefix];
    const submitted = await cli([
      'submit',
      ...queue,
      '--task',
      'gauntlet:click_sequence',
      '--seeds',
      '4',
      '--id-prefix',
      'types',
    ]);
    expect([submitted.code, submitted.err]).toEqual([0, expect.stringContaining('submitted 1 groups of 8')]);
    const groups = new Queue(QUEUES.groups, { connection: connection.redis, prefix: connection.prefix });
    cleanups.push(() => groups.close());
    const job = await groups.getJob('types-gauntlet.click_sequence-4');
    expect(job?.data).toMatchObject({ task: 'gauntlet:click_sequence', seed: 4 });
    // --start-step is the full Gauntlet's reset option: in the job's settings, refused for any other task.
    const late = await cli(['submit', ...queue, '--task', 'gauntlet', '--seeds', '1', '--start-step', '12']);
    expect(late.code, late.err).toBe(0);
    expect((await groups.getJob('g-gauntlet-1'))?.data.settings.reset_options).toEqual({ start_step: 12 });
    const elsewhere = await cli(['submit', ...queue, '--task', 'gauntlet,click-test', '--start-step', '3']);
    expect(elsewhere).toMatchObject({
      code: 2,
      err: expect.stringContaining('--start-step applies to the full "gauntlet" task only (not "click-test")'),
    });
    // --text-choices narrows constrained decoding: in the job's settings, refused without --constrained.
    const typed = ['submit', ...queue, '--task', 'click-test', '--seeds', '2', '--text-choices'];
    expect((await cli([...typed, '--constrained'])).code).toBe(0);
    expect((await groups.getJob('g-click-test-2'))?.data.settings).toMatchObject({
      constrained: true,
      text_choices: true,
    });
    expect(await cli([...typed, '--seeds', '3'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('set constrained too'),
    });
    const clash = await cli(['submit', ...queue, '--task', 'gauntlet:timer,gauntlet.timer', '--seeds', '0']);
    expect(clash).toMatchObject({
      code: 2,
      err: expect.stringContaining('two groups would share the id g-gauntlet.timer-0'),
    });
  });

  it('eval plays N episodes per task and reports success rates as a table and as JSON', async () => {
    const json = await cli(
      randomEval(env.grpc, '--task', 'click-test,click-button', '--episodes', '3', '--max-turns', '2', '--json'),
    );
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out);
    expect(report.tasks.map((t: { task: string; episodes: number }) => [t.task, t.episodes])).toEqual([
      ['click-test', 3],
      ['click-button', 3],
    ]);
    for (const t of report.tasks) {
      expect(t.unjudged).toBe(0);
      expect(t.success_rate).toBeCloseTo(t.success / (t.episodes - t.infra_error - t.unjudged), 3);
    }
    expect(report.episodes.map((e: { seed: number }) => e.seed)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(json.err).toMatch(/\[6\/6\] /);
    // The same seeds and policy seed play the same episodes: the table agrees with the JSON.
    const table = await cli(
      randomEval(env.grpc, '--task', 'click-test,click-button', '--episodes', '3', '--max-turns', '2'),
    );
    expect(table.out.split('\n')[0]).toMatch(/infra_error +unjudged +mean reward/);
    const row = table.out.split('\n').find((line) => line.startsWith('click-test'))!;
    expect(row).toContain(`${(report.tasks[0].success_rate * 100).toFixed(1)}%`);
  }, 150_000);

  it('eval --start-step starts the Gauntlet at that step: the env takes the option, no episode is an infra error', async () => {
    const run = await cli(
      randomEval(env.grpc, '--task', 'gauntlet', '--start-step', '30', '--episodes', '1', '--max-turns', '1', '--json'),
    );
    expect(run.code, run.err).toBe(0);
    const report = JSON.parse(run.out);
    expect(report.episodes).toHaveLength(1);
    expect(report.episodes[0]).toMatchObject({ task: 'gauntlet', attempts: 1 });
    expect(['success', 'fail', 'timeout']).toContain(report.episodes[0].outcome);
    const beyond = await cli(randomEval(env.grpc, '--task', 'gauntlet', '--start-step', '31'));
    expect(beyond).toMatchObject({ code: 2, err: expect.stringContaining('--start-step') });
  }, 120_000);

  it('eval against an env server nobody answers on exits 1 and says no episode could run', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const run = await cli(randomEval(closed, '--task', 'click-test', '--episodes', '2', '--attempts', '1', '--json'));
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out).tasks[0]).toMatchObject({ episodes: 2, infra_error: 2 });
    expect(run.err).toContain(`eval: no episode could run (all 2 ended as infra_error); check --env (${closed})`);
    // Unreachable at start: the task names went unchecked, as the first line says, and it ran as before.
    expect(run.err.split('\n')[0]).toMatch(
      /^eval: task names not checked \(http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED\)$/,
    );
  }, 150_000);

  it("eval and submit check --task against the env server's task list at start: exit 2, closest name", async () => {
    const evalRun = await cli(randomEval(env.http, '--task', 'click-tset,click-button'));
    expect([evalRun.code, evalRun.out]).toEqual([2, '']);
    expect(evalRun.err.split('\n')[0]).toMatch(
      /^gauntlet-worker eval: --task "click-tset" \(did you mean click-test\?\): not served by the env servers \(\d+ tasks; /,
    );
    // submit refuses before anything is enqueued: the Redis it names is never contacted.
    const closedRedis = `redis://127.0.0.1:${await freePort()}`;
    const submitRun = await cli([
      'submit',
      '--redis',
      closedRedis,
      '--env',
      `ws://${new URL(env.http).host}`,
      '--task',
      'miniwob.enter-txt',
    ]);
    expect(submitRun.code).toBe(2);
    expect(submitRun.err).toContain('--task "miniwob.enter-txt" (did you mean miniwob.enter-text?)');
    expect(submitRun.err).not.toMatch(/Redis/);
  }, 150_000);

  it('eval --demo and --demo-template are checked before any episode: exit 2 naming the flag', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eval-demo-'));
    const demo = join(dir, 'demo.jsonl');
    await writeFile(
      demo,
      `${JSON.stringify({
        task: 'miniwob.click-test',
        messages: [
          { role: 'user', content: "[4] button 'Click Me!'" },
          { role: 'assistant', content: "click('4')" },
        ],
      })}\n`,
    );
    const template = join(dir, 'template.txt');
    await writeFile(template, 'Demo: {demonstration}');
    const base = randomEval(`http://127.0.0.1:${await freePort()}`);
    const cases: [string[], string][] = [
      [['--task', 'click-test', '--demo-template', template], '--demo-template needs --demo'],
      [['--task', 'login-user', '--demo', demo], '--demo demo.jsonl has no demonstration of login-user'],
      [['--task', 'click-test', '--demo', demo, '--demo-template', template], 'has no {observation}'],
      [['--task', 'click-test', '--demo', join(dir, 'none.jsonl')], 'no such file'],
    ];
    for (const [flags, message] of cases) {
      const run = await cli([...base, ...flags]);
      expect([run.code, run.out, run.err]).toEqual([2, '', expect.stringContaining(message)]);
    }
  });
});
