import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUEUES } from '@gauntlet/proto/rollout';
import { Queue } from 'bullmq';
import { queueConnection, type QueueConnection } from '@gauntlet/proto/rollout/queue';
import { startProcess, type Started } from './process.js';

/** The shared test Redis; never restarted by tests (they start their own for that). */
export const SHARED_REDIS = 'redis://127.0.0.1:6379';

/** A fresh `test-<uuid>` prefix on `url`: every test gets queues nobody else sees. */
export function freshConnection(url = SHARED_REDIS): QueueConnection {
  return queueConnection(url, `test-${randomUUID()}`);
}

/** Removes every queue of a test's prefix. */
export async function removeQueues(connection: QueueConnection): Promise<void> {
  await Promise.all(
    Object.values(QUEUES).map(async (name) => {
      const queue = new Queue(name, { connection: connection.redis, prefix: connection.prefix });
      try {
        await queue.obliterate({ force: true });
      } finally {
        await queue.close();
      }
    }),
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface OwnRedis {
  url: string;
  port: number;
  server: Started;
  /** Stops this Redis (SIGTERM, data kept in its AOF) and starts it again on the same port and folder. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A private redis-server on a free port with an fsync-always AOF, for tests that restart Redis. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-redis-'));
  const launch = () =>
    startProcess(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
      ],
      /Ready to accept connections/,
    );
  const own: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    server: await launch(),
    async restart() {
      await own.server.stop('SIGTERM');
      own.server = await launch();
    },
    async stop() {
      await own.server.stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return own;
}
