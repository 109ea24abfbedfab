import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin, startBin } from './run-cli.js';

// `gauntlet-trainer grpo` against a Redis that is not there: a closed port (bound, then closed)
// and a listener that accepts and never answers; and a Redis of the test's own that goes away mid-run.
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function outputDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-grpo-redis-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'run');
}

async function listener(onConnection: (socket: Socket) => void): Promise<number> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as { port: number }).port;
}

describe('grpo without Redis', () => {
  it('exits 1 at start with one line naming the Redis URL and the reason', async () => {
    // Bound, then closed: nothing listens on the port any more.
    const bound = createServer();
    await new Promise<void>((resolve) => bound.listen(0, '127.0.0.1', resolve));
    const port = (bound.address() as { port: number }).port;
    await new Promise((resolve) => bound.close(resolve));
    const url = `redis://127.0.0.1:${port}`;
    const result = runBin(['grpo', '--task', 'click-test', '--redis', url, '--output-dir', outputDir()], {
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^gauntlet-trainer grpo: cannot reach Redis at ${url.replace(/\./g, '\\.')} within 5000 ms: .*ECONNREFUSED`,
        ),
      ),
    ]);
  }, 90_000);

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'stops on %s while waiting for a Redis that never answers (exit 130)',
    async (signal) => {
      const sockets: Socket[] = [];
      let connected!: () => void;
      const first = new Promise<void>((resolve) => (connected = resolve));
      const port = await listener((socket) => {
        sockets.push(socket);
        socket.on('error', () => undefined);
        connected();
      });
      cleanups.push(() => sockets.forEach((s) => s.destroy()));
      const run = startBin([
        'grpo',
        '--task',
        'click-test',
        '--redis',
        `redis://127.0.0.1:${port}`,
        '--redis-timeout-ms',
        '600000',
        '--output-dir',
        outputDir(),
      ]);
      cleanups.push(() => run.child.exitCode === null && run.child.kill('SIGKILL'));
      await first;
      run.child.kill(signal);
      const result = await run.done;
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    },
    90_000,
  );
});

/** A private redis-server with `flags` on a port of its own; `stop` and `start` take it down and up again there. */
async function ownRedis(flags: string[]): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void> }> {
  // Bound, then closed: a free port for the server.
  const bound = createServer();
  await new Promise<void>((resolve) => bound.listen(0, '127.0.0.1', resolve));
  const port = (bound.address() as { port: number }).port;
  await new Promise((resolve) => bound.close(resolve));
  let child: ChildProcess | null = null;
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...flags],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let printed = '';
      started.stdout!.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        if (printed.includes('Ready to accept connections')) resolve();
      });
      started.on('exit', () => reject(new Error(`redis-server exited:\n${printed}`)));
    });
  };
  cleanups.push(stop);
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}

describe('grpo when Redis goes away mid-run', () => {
  it('says so once, answers /health 503 until Redis is back, says so once, and stops on SIGINT', async () => {
    const redis = await ownRedis([]);
    const run = startBin([
      'grpo',
      '--task',
      'click-test',
      '--redis',
      redis.url,
      '--port',
      '0',
      '--output-dir',
      outputDir(),
    ]);
    cleanups.push(() => run.child.exitCode === null && run.child.kill('SIGKILL'));
    const printed = (stream: 'stdout' | 'stderr', pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve) => {
        let text = '';
        const look = (chunk: Buffer) => {
          text += chunk.toString();
          const match = pattern.exec(text);
          if (!match) return;
          run.child[stream]!.off('data', look);
          resolve(match);
        };
        run.child[stream]!.on('data', look);
      });
    const url = (await printed('stdout', /policy server (http:\/\/\S+);/))[1]!;
    const health = async () => {
      const res = await fetch(`${url}/health`);
      return { status: res.status, body: await res.text() };
    };
    expect((await health()).status).toBe(200);
    const escaped = redis.url.replace(/\./g, '\\.');
    const wentDown = printed('stderr', new RegExp(`grpo: Redis at ${escaped} is unreachable \\(.*\\); reconnecting`));
    await redis.stop();
    await wentDown;
    const down = await health();
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: 'unavailable', reason: `Redis at ${redis.url} is unreachable` });
    const backUp = printed('stderr', new RegExp(`grpo: Redis at ${escaped} is reachable again`));
    await redis.start();
    await backUp;
    expect((await health()).status).toBe(200);
    run.child.kill('SIGINT');
    const result = await run.done;
    expect(result.code, result.stderr).toBe(130);
    const lines = result.stderr.split('\n');
    expect(lines.filter((line) => /is unreachable/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => /is reachable again/.test(line))).toHaveLength(1);
    expect(result.stderr).not.toMatch(/^\s+at |ECONNREFUSED\s*$/m);
  }, 120_000);
});

describe('grpo on a Redis that evicts keys', () => {
  it('refuses to start: one line naming the policy and the fix, exit 1', async () => {
    const { url } = await ownRedis(['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru']);
    const result = runBin(['grpo', '--task', 'click-test', '--redis', url, '--output-dir', outputDir()], {
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `gauntlet-trainer grpo: Redis at ${url} has maxmemory-policy allkeys-lru: it may evict queued jobs; set it to noeviction (redis-server --maxmemory-policy noeviction, or CONFIG SET maxmemory-policy noeviction)`,
    ]);
  }, 90_000);
});
