import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InfraError } from '@gauntlet/proto';
import { startChildBin } from '@gauntlet/proto/cli';
import { redisOptions } from '@gauntlet/proto/rollout/queue';

export interface LocalRedis {
  url: string;
  /** True when this process started it (and stop() ends it); false for a Redis that was already there. */
  owned: boolean;
  stop(): Promise<void>;
}

/** Whether something accepts TCP connections at the URL's host and port within `timeoutMs`. */
export function reachable(url: string, timeoutMs = 1000): Promise<boolean> {
  const { host, port } = redisOptions(url);
  return new Promise((resolve) => {
    const socket = connect({ host: host ?? '127.0.0.1', port: port ?? 6379 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The Redis at `url` when one answers there; otherwise a private `redis-server` on a free loopback
 * port that keeps nothing on disk (its working folder is a temp folder removed at stop).
 */
export async function useOrStartRedis(url: string, log: (line: string) => void): Promise<LocalRedis> {
  if (await reachable(url)) return { url, owned: false, stop: async () => undefined };
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'gauntlet-learn-redis-'));
  log(`no Redis at ${url}: starting redis-server on 127.0.0.1:${port}`);
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const server = await startChildBin('redis-server', args, {
    what: 'redis-server',
    ready: /Ready to accept connections/,
    timeoutMs: 30_000,
  }).catch(async (error: Error) => {
    await rm(dir, { recursive: true, force: true });
    throw new InfraError(
      `--redis: nothing answers at ${url} and a private Redis could not be started (${error.message}); install redis-server (apt-get install -y redis-server) or point --redis / REDIS_URL at a Redis`,
    );
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    owned: true,
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
