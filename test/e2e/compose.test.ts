// docker-compose.yml for real, the way docs/deploy.md tells a user without an image registry:
// scripts/compose-env.sh writes BASE_IMAGE, REDIS_IMAGE and EXTRA_CA_CERTS into the .env (here a
// copy of the repository's, so the checkout is left alone), then plain `docker compose` commands
// build and bring the stack up with a bearer token, click-test is played against the env container
// over HTTP and gRPC from the host, the trainer publishes adapter versions that the workers record
// on their turns, a trainer killed before its first checkpoint restarts and starts its run afresh,
// four workers share the env server's sessions without failing an episode for want of one, and
// `docker compose down -v` leaves nothing behind.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvClient } from '@gauntlet/proto/client';
import { QUEUES, TrajectoryGroup } from '@gauntlet/proto/rollout';
import { ComposeProject } from './compose.js';
import { DockerResources, REPO, docker, playClickTest, run, tail, waitHealthy } from './docker.js';

const BUILD_MS = 30 * 60_000;
const runId = `${process.pid}-${randomBytes(3).toString('hex')}`;
const token = randomBytes(12).toString('hex');
const resources = new DockerResources();
const scratch = mkdtempSync(join(tmpdir(), 'gauntlet-compose-'));
const envFile = join(scratch, '.env');
let compose: ComposeProject;
let redisPort: number;

/** The trainer's metrics.jsonl rows (one per update, in file order): version and time (ms). */
async function trainerUpdates(): Promise<{ version: number; time: number }[]> {
  const lines = await compose.run(['exec', '-T', 'trainer', 'cat', '/data/runs/metrics.jsonl']);
  return lines
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { version: number; time: number });
}

async function trainerVersions(): Promise<number[]> {
  return (await trainerUpdates()).map((update) => update.version);
}

/** The running containers of a service. */
async function containers(service: string): Promise<string[]> {
  return (await compose.run(['ps', '--quiet', '--status', 'running', service])).split('\n').filter(Boolean);
}

/** A worker container's Prometheus counters (summed over labels), read inside it: port 9464 is not published. */
async function workerCounters(container: string): Promise<Map<string, number>> {
  const text = await docker([
    'exec',
    container,
    'node',
    '-e',
    "fetch('http://127.0.0.1:9464/metrics').then((r) => r.text()).then((t) => process.stdout.write(t))",
  ]);
  const counters = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(gauntlet_worker_\w+?)(?:\{[^}]*\})? (\S+)$/.exec(line);
    if (match) counters.set(match[1]!, (counters.get(match[1]!) ?? 0) + Number(match[2]));
  }
  return counters;
}

/**
 * Run inside the trainer container: SIGKILLs the grpo process (not tini, PID 1, nor this
 * script, whose own text names grpo) while no checkpoint exists yet, and prints what it saw.
 * `docker kill` would not do: Docker counts it as a stop, and `restart: on-failure` ignores it.
 */
const KILL_GRPO_BEFORE_CHECKPOINT = `
const fs = require('node:fs');
let checkpoints = [];
try { checkpoints = fs.readdirSync('/data/runs/checkpoints'); } catch {}
const grpo = fs.readdirSync('/proc').filter((pid) => {
  if (!/^\\d+$/.test(pid) || pid === '1' || Number(pid) === process.pid) return false;
  try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').join(' ').includes(' grpo '); }
  catch { return false; }
});
const updates = fs.readFileSync('/data/runs/metrics.jsonl', 'utf8').split('\\n').filter(Boolean).length;
if (checkpoints.length === 0 && grpo.length === 1) process.kill(Number(grpo[0]), 'SIGKILL');
console.log(JSON.stringify({ checkpoints, grpo, updates }));
`;

beforeAll(
  async () => {
    // The offline path: the script picks the local Debian base and a Redis built on it when no
    // registry answers, and the host's extra CA certificates; its images stay cached, like the base.
    copyFileSync(join(REPO, '.env'), envFile);
    const written = await run('bash', ['scripts/compose-env.sh', envFile], { timeoutMs: 20 * 60_000 });
    if (written.code !== 0) throw new Error(`scripts/compose-env.sh failed:\n${tail(written.stderr + written.stdout)}`);
    // Redis published on a free loopback port, for this test's reading of the queues only.
    const override = join(scratch, 'redis-port.yml');
    writeFileSync(override, "services:\n  redis:\n    ports: ['127.0.0.1::6379']\n");
    compose = new ComposeProject(
      `gauntlet-e2e-${runId}`,
      {
        GAUNTLET_ENV_IMAGE: resources.image(`gauntlet-e2e/compose-env:${runId}`),
        GAUNTLET_TRAINER_IMAGE: resources.image(`gauntlet-e2e/compose-trainer:${runId}`),
        GAUNTLET_WORKER_IMAGE: resources.image(`gauntlet-e2e/compose-worker:${runId}`),
        GAUNTLET_TOKEN: token,
        GAUNTLET_REQUIRE_TOKEN: '1',
        // Free host ports (other stacks may hold 8000/8001 on this machine).
        GAUNTLET_ENV_PORTS: '',
        GAUNTLET_GRPC_PORTS: '',
        GAUNTLET_TRAINER_PORT: '',
        // Small updates, so versions arrive within a minute or two on two loaded cores; enough of
        // them that the trainer is still up (serving /metrics and /curves) when the checks run.
        GAUNTLET_MAX_STEPS: '1000',
        GAUNTLET_GROUP_SIZE: '2',
        GAUNTLET_GROUPS_PER_UPDATE: '2',
        GAUNTLET_MAX_TURNS: '2',
        GAUNTLET_MAX_TOKENS: '8',
        // No checkpoint in this run: the restart test kills the trainer after its first update
        // and before its first checkpoint. At grpo's default (every 10) an idle machine's trainer
        // had checkpointed before that test began, and the kill never came.
        GAUNTLET_CHECKPOINT_EVERY: '1000000',
      },
      [override],
      envFile,
    );
    await compose.run(['build'], BUILD_MS);
    await compose.run(['up', '--detach', '--wait', '--wait-timeout', '300'], 6 * 60_000);
    redisPort = await compose.port('redis', 6379);
  },
  BUILD_MS + 10 * 60_000,
);

afterAll(async () => {
  await compose?.run(['down', '--volumes', '--remove-orphans', '--timeout', '20'], 180_000).catch(() => undefined);
  await resources.removeAll();
  rmSync(scratch, { recursive: true, force: true });
}, 240_000);

describe('docker compose up', () => {
  it('takes its images from the .env scripts/compose-env.sh wrote, with no variable in the shell', async () => {
    const lines = readFileSync(envFile, 'utf8').split('\n');
    const value = (name: string) => lines.find((line) => line.startsWith(`${name}=`))?.slice(name.length + 1);
    expect(lines).toContain('COMPOSE_PROFILES=train');
    expect(value('BASE_IMAGE')).toMatch(/\S/);
    expect(value('EXTRA_CA_CERTS')).toMatch(/^".*"$/);
    const images = (await compose.run(['config', '--images'])).split('\n');
    expect(images).toContain(value('REDIS_IMAGE'));
  });

  it('offers a profile with the env server alone', async () => {
    expect((await compose.run(['--profile', 'env', 'config', '--services'])).split('\n')).toEqual(['env']);
    expect((await compose.run(['config', '--services'])).split('\n').sort()).toEqual([
      'env',
      'redis',
      'rollout-worker',
      'trainer',
    ]);
  });

  it('serves click-test from the env container over HTTP and gRPC, with the token', async () => {
    const http = `http://127.0.0.1:${await compose.port('env', 8000)}`;
    const grpc = `grpc://127.0.0.1:${await compose.port('env', 50051)}`;
    await playClickTest(createEnvClient(http, { token, validateReplies: true }));
    await playClickTest(createEnvClient(grpc, { token, validateReplies: true }));
    expect((await fetch(`${http}/tasks`)).status).toBe(401);
  }, 120_000);

  it(
    'restarts a trainer killed between its first update and its first checkpoint, which starts the run afresh',
    async () => {
      const [trainer] = await containers('trainer');
      await compose.waitFor(
        'the first update',
        async () => ((await trainerVersions()).length >= 1 ? true : undefined),
        8 * 60_000,
      );
      // This stack checkpoints only every 1000000 updates (GAUNTLET_CHECKPOINT_EVERY): the kill comes before.
      const killed = JSON.parse(
        await compose.run(['exec', '-T', 'trainer', 'node', '-e', KILL_GRPO_BEFORE_CHECKPOINT]),
      ) as { checkpoints: string[]; grpo: string[]; updates: number };
      expect({ checkpoints: killed.checkpoints, grpo: killed.grpo.length }).toEqual({ checkpoints: [], grpo: 1 });
      expect(killed.updates).toBeGreaterThanOrEqual(1);

      // restart: on-failure brings it back once; --resume finds no checkpoint and starts afresh.
      await compose.waitFor(
        'the restart',
        async () => ((await docker(['inspect', '--format', '{{.RestartCount}}', trainer!])) === '1' ? true : undefined),
        120_000,
      );
      await waitHealthy(trainer!, 180_000);
      const restartedAt = Date.parse(await docker(['inspect', '--format', '{{.State.StartedAt}}', trainer!]));
      const afresh = await compose.waitFor(
        'two updates of the restarted run',
        async () => {
          const updates = await trainerUpdates();
          return updates.filter((update) => update.time >= restartedAt).length >= 2 ? updates : undefined;
        },
        8 * 60_000,
      );
      // The restarted run rewrote metrics.jsonl: versions 1..n, in order, none twice, all its own.
      expect(afresh.map((update) => update.version)).toEqual(afresh.map((_, i) => i + 1));
      expect(afresh.filter((update) => update.time < restartedAt)).toEqual([]);
      const logs = await compose.run(['logs', '--no-color', 'trainer']);
      expect(logs.split('\n').filter((line) => line.includes('--resume: no checkpoint in'))).toHaveLength(2);
      expect(await docker(['inspect', '--format', '{{.RestartCount}}', trainer!])).toBe('1');
    },
    15 * 60_000,
  );

  it(
    'trains: the trainer publishes adapter versions and the workers play with them',
    async () => {
      const trainer = `http://127.0.0.1:${await compose.port('trainer', 8001)}`;
      const versions = await compose.waitFor(
        'two published versions',
        async () => {
          const lines = await compose.run(['exec', '-T', 'trainer', 'cat', '/data/runs/metrics.jsonl']);
          const seen = lines.split('\n').map((line) => (JSON.parse(line) as { version: number }).version);
          return seen.length >= 2 ? seen : undefined;
        },
        8 * 60_000,
      );
      expect(versions.slice(0, 2)).toEqual([1, 2]);
      const metrics = await fetch(`${trainer}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(await metrics.text()).toMatch(/^gauntlet_grpo_/m);
      expect((await fetch(`${trainer}/curves`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

      // Finished groups stay in Redis: their turns name the version that played them.
      const queue = new Queue(QUEUES.trajectoryGroups, {
        connection: { host: '127.0.0.1', port: redisPort },
        prefix: 'gauntlet',
      });
      try {
        const recorded = await compose.waitFor(
          'a group played by a trained version',
          async () => {
            const groups = (await queue.getJobs(['completed', 'active', 'waiting'])).map((job) =>
              TrajectoryGroup.parse(job.data),
            );
            const seen = groups.flatMap((g) => g.trajectories.flatMap((t) => t.turns.map((turn) => turn.policy)));
            return seen.some((p) => (p.version ?? 0) >= 1) ? seen : undefined;
          },
          5 * 60_000,
        );
        for (const policy of recorded) expect(policy.adapter).toBe(`click-test@v${policy.version}`);
      } finally {
        await queue.close();
      }
    },
    15 * 60_000,
  );

  it(
    'scales the workers to 4: more episodes than the env has sessions wait for one, none fails for want of one and no group is dropped; then comes down leaving nothing behind',
    async () => {
      // --no-deps: the trainer may have finished its short run, and `up` would start it again.
      await compose.run(['up', '--detach', '--no-deps', '--scale', 'rollout-worker=4', 'rollout-worker'], 240_000);
      const workers = await compose.waitFor(
        'four running workers',
        async () => {
          const ids = await containers('rollout-worker');
          return ids.length === 4 ? ids : undefined;
        },
        120_000,
      );
      for (const id of workers) await waitHealthy(id, 120_000);

      // 12 groups of 4 on top of the trainer's own: 4 workers × 4 episodes at once against the
      // env's 8 sessions, so episodes must wait for a session (back-pressure), never fail for one.
      const summary = JSON.parse(
        await compose.run(
          [
            'exec',
            '-T',
            'rollout-worker',
            'node',
            'rollout-worker/bin/cli.js',
            'submit',
            '--task',
            'miniwob.click-test',
            '--seeds',
            '0-11',
            '--group-size',
            '4',
            '--id-prefix',
            `scale-${runId}`,
            '--max-turns',
            '1',
            '--max-tokens',
            '8',
            '--wait',
          ],
          10 * 60_000,
        ),
      ) as { completed: number; dropped: number };
      expect(summary).toMatchObject({ completed: 12, dropped: 0 });
      // A drop or a failed try names its reason in the worker's log: show it, not only a count. A
      // try may fail on a saturated host (a page load past its timeout) and be retried, but never
      // for want of a session, and no episode fails for good.
      const logs = (await compose.run(['logs', '--no-color', 'rollout-worker'])).split('\n');
      expect(logs.filter((line) => / dropped: |failed for good/.test(line))).toEqual([]);
      expect(logs.filter((line) => /will be retried.*(capacity|CAPACITY_REACHED)/i.test(line))).toEqual([]);
      const counters = await Promise.all(workers.map(workerCounters));
      const sum = (name: string) => counters.reduce((total, c) => total + (c.get(name) ?? 0), 0);
      expect(sum('gauntlet_worker_groups_dropped_total')).toBe(0);
      expect(sum('gauntlet_worker_env_waits_total')).toBeGreaterThan(0);
      // Every worker took part.
      for (const c of counters) expect(c.get('gauntlet_worker_episodes_total') ?? 0).toBeGreaterThan(0);

      await compose.run(['down', '--volumes', '--remove-orphans', '--timeout', '20'], 180_000);
      expect(await compose.leftovers()).toEqual([]);
    },
    15 * 60_000,
  );
});
