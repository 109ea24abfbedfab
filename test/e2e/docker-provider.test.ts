// The worker's Docker env provider (`gauntlet-worker run --docker IMAGE --replicas N`) on a real
// Docker engine, with the env image built from Dockerfile.env on the local base (see
// docker-images.test.ts; the second build is cache hits). The worker runs as its own process from
// its bin, plays a group on its containers, and cleans up after itself and after a killed worker.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '@gauntlet/proto/rollout';
import { Queue } from 'bullmq';
import { DockerResources, REPO, buildEnvImage, docker, run } from './docker.js';

const BUILD_MS = 25 * 60_000;
const WORKER_START_MS = 180_000;
const REDIS = 'redis://127.0.0.1:6379';
const prefix = `test-${randomUUID()}`;
const resources = new DockerResources();
const workers: ChildProcess[] = [];
let image: string;

beforeAll(async () => {
  image = resources.image(`gauntlet-e2e/env:provider-${process.pid}-${randomBytes(3).toString('hex')}`);
  await buildEnvImage(image);
}, BUILD_MS);

afterAll(async () => {
  for (const child of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // Whatever a failed test left: containers of this run's workers, then the image and the queues.
  for (const child of workers) for (const id of await containersOf(child)) resources.container(id);
  await resources.removeAll();
  const redis = new URL(REDIS);
  for (const name of Object.values(QUEUES)) {
    const queue = new Queue(name, { connection: { host: redis.hostname, port: Number(redis.port) }, prefix });
    await queue.obliterate({ force: true });
    await queue.close();
  }
}, 120_000);

interface Worker {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** `gauntlet-worker run --docker <image> --replicas 2`, resolved once it prints that it is ready. */
function startWorker(): Promise<Worker> {
  const args = [
    join(REPO, 'rollout-worker/bin/cli.js'),
    'run',
    '--redis',
    REDIS,
    '--prefix',
    prefix,
    '--docker',
    image,
    '--replicas',
    '2',
    '--policy',
    'random',
    '--concurrency',
    '2',
    '--no-metrics',
    '--drain-ms',
    '20000',
  ];
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  workers.push(child);
  let text = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the worker was not ready within ${WORKER_START_MS} ms:\n${text}`)),
      WORKER_START_MS,
    );
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      if (/^worker ready/m.test(text)) {
        clearTimeout(timer);
        resolve({ child, output: () => text, exited });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited (${code}) before it was ready:\n${text}`));
    });
  });
}

/** Ids of the containers (running or not) whose owner label names this worker process. */
async function containersOf(child: ChildProcess): Promise<string[]> {
  const out = await docker([
    'ps',
    '--all',
    '--quiet',
    '--no-trunc',
    '--filter',
    'label=dev.gauntlet.role=env-server',
    '--filter',
    `label=dev.gauntlet.owner=${hostname()}:${child.pid}`,
  ]);
  return out.split('\n').filter(Boolean).sort();
}

describe('gauntlet-worker run --docker', () => {
  it(
    'starts labelled loopback-only replicas, plays a group on them, and removes them on SIGTERM',
    async () => {
      const worker = await startWorker();
      const ids = await containersOf(worker.child);
      expect(ids).toHaveLength(2);
      const labels = await Promise.all(
        ids.map(
          async (id) =>
            JSON.parse(await docker(['inspect', '--format', '{{json .Config.Labels}}', id])) as Record<string, string>,
        ),
      );
      expect(labels.map((l) => l['dev.gauntlet.replica']).sort()).toEqual(['0', '1']);
      const bindings = await docker(['inspect', '--format', '{{json .HostConfig.PortBindings}}', ids[0]!]);
      expect(
        Object.values(JSON.parse(bindings) as Record<string, { HostIp: string }[]>)
          .flat()
          .map((b) => b.HostIp),
      ).toEqual(['127.0.0.1', '127.0.0.1']);

      const submit = await run(
        process.execPath,
        [
          join(REPO, 'rollout-worker/bin/cli.js'),
          'submit',
          '--redis',
          REDIS,
          '--prefix',
          prefix,
          '--task',
          'click-test',
          '--seeds',
          '3',
          '--group-size',
          '4',
          '--max-turns',
          '3',
          '--id-prefix',
          'docker',
          '--wait',
        ],
        { timeoutMs: 180_000 },
      );
      expect(submit.code, submit.stderr).toBe(0);
      expect(JSON.parse(submit.stdout.trim().split('\n').at(-1)!)).toMatchObject({
        groups: 1,
        completed: 1,
        dropped: 0,
      });
      expect(worker.output()).toMatch(/group docker-click-test-3 done/);

      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(await containersOf(worker.child)).toEqual([]);
    },
    2 * WORKER_START_MS + 180_000,
  );

  it(
    "removes a SIGKILLed worker's containers when the next worker starts, and leaves live workers' alone",
    async () => {
      const killed = await startWorker();
      const orphans = await containersOf(killed.child);
      expect(orphans).toHaveLength(2);
      killed.child.kill('SIGKILL');
      await killed.exited;
      // Nothing stopped them: they outlive their worker.
      expect(await containersOf(killed.child)).toEqual(orphans);

      const next = await startWorker();
      expect(await containersOf(killed.child)).toEqual([]);
      const mine = await containersOf(next.child);
      expect(mine).toHaveLength(2);

      // A third worker starting beside a live one leaves the live one's containers running.
      const third = await startWorker();
      expect(await containersOf(next.child)).toEqual(mine);
      for (const worker of [next, third]) {
        worker.child.kill('SIGTERM');
        expect(await worker.exited).toBe(0);
        expect(await containersOf(worker.child)).toEqual([]);
      }
    },
    4 * WORKER_START_MS,
  );
});
