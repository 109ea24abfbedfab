import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, startProcess } from '../support/process.js';
import { freePort, startOwnRedis } from '../support/redis.js';

// The bins against a Redis that is not there: a closed port (bound, then closed), a listener that
// accepts and never answers, and a Redis of the test's own that is stopped and started again.
const BIN = join(ROOT, 'rollout-worker/bin/cli.js');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

interface Exited {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bin; `started` is called with the child once spawned (to signal it). */
function runBin(args: string[], started?: (child: ReturnType<typeof spawn>) => void): Promise<Exited> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
  started?.(child);
  return once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** A TCP listener that accepts and never answers: Redis that hangs. Resolves `connected` on the first client. */
async function blackHole() {
  const sockets: Socket[] = [];
  let connected!: () => void;
  const first = new Promise<void>((resolve) => (connected = resolve));
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    connected();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`, connected: first };
}

const COMMANDS: [string, string[]][] = [
  ['status', ['status']],
  ['submit', ['submit', '--task', 'click-test']],
  ['run', ['run', '--env', 'grpc://127.0.0.1:1', '--policy', 'random', '--no-metrics']],
];

describe('Redis unreachable', () => {
  it.each(COMMANDS)(
    '%s: Redis on a closed port at start exits 1 with one line naming the URL and the reason',
    async (name, args) => {
      const url = `redis://127.0.0.1:${await freePort()}`;
      const result = await runBin([...args, '--redis', url]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(lines(result.stderr)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^gauntlet-worker ${name}: cannot reach Redis at ${url.replace(/\./g, '\\.')} within 5000 ms: .*ECONNREFUSED`,
          ),
        ),
      ]);
    },
    60_000,
  );

  it.each([
    ['status', 'SIGTERM'],
    ['status', 'SIGINT'],
    ['submit', 'SIGINT'],
    ['submit', 'SIGTERM'],
    ['run', 'SIGINT'],
    ['run', 'SIGTERM'],
  ] as const)(
    '%s waiting on a Redis that never answers stops on %s (exit 130)',
    async (name, signal) => {
      const hole = await blackHole();
      const args = COMMANDS.find(([n]) => n === name)![1];
      const result = await runBin([...args, '--redis', hole.url, '--redis-timeout-ms', '600000'], (child) => {
        void hole.connected.then(() => child.kill(signal));
      });
      expect(result.code, result.stderr).toBe(130);
      expect(lines(result.stderr).join('\n')).toMatch(/interrupted/);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    },
    60_000,
  );

  it('a worker that loses Redis says so once, answers /health 503 until it is back, says so once, and stops on SIGINT during an outage', async () => {
    const redis = await startOwnRedis();
    cleanups.push(() => redis.stop());
    const worker = await startProcess(
      process.execPath,
      [BIN, 'run', '--env', 'grpc://127.0.0.1:1', '--policy', 'random', '--metrics-port', '0', '--redis', redis.url],
      /^worker ready.*metrics (http:\/\/\S+)\/metrics/,
    );
    cleanups.push(() => worker.stop('SIGKILL'));
    const health = async () => {
      const res = await fetch(`${worker.ready[1]}/health`);
      return { status: res.status, body: (await res.json()) as { reason?: string } };
    };
    expect((await health()).status).toBe(200);
    const down = new RegExp(`^Redis at ${redis.url.replace(/\./g, '\\.')} is unreachable \\(.*\\); reconnecting`);
    const wentDown = worker.waitFor(down);
    await redis.server.stop('SIGTERM');
    await wentDown;
    expect(await health()).toEqual({
      status: 503,
      body: { status: 'unavailable', reason: expect.stringMatching(/unreachable/) },
    });
    const backUp = worker.waitFor(/^Redis at \S+ is reachable again$/);
    await redis.restart();
    await backUp;
    expect((await health()).status).toBe(200);
    const downAgain = worker.waitFor(down);
    await redis.server.stop('SIGTERM');
    await downAgain;
    worker.child.kill('SIGINT');
    const exited = await worker.exited;
    expect(exited.code).toBe(130);
    const output = lines(worker.output());
    expect(output.filter((line) => down.test(line))).toHaveLength(2);
    expect(output.filter((line) => /reachable again/.test(line))).toHaveLength(1);
    expect(worker.output()).not.toMatch(/^\s+at /m);
    expect(worker.output()).not.toMatch(/ECONNREFUSED\s*$/m);
  }, 120_000);
});
