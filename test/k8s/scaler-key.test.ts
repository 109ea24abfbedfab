// The KEDA triggers count the Redis lists k8s/ names; this checks, on a real Redis with the
// installed BullMQ, that submitted episode jobs wait in exactly the first and a job a worker takes
// moves to the second, so their sum stays the backlog (a BullMQ upgrade that moved them would leave
// the workers unscaled).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { QUEUES } from '@gauntlet/proto/rollout';
import { GroupSubmitter, queueConnection } from '@gauntlet/rollout-worker';
import { K8S, renderKustomization } from './render.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test-${randomUUID()}`;
let redis: Redis;

beforeAll(() => {
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

it("counts a submitted group's episodes in the lists the ScaledObject watches, waiting and taken", async () => {
  const objects = renderKustomization(join(K8S, 'overlays', 'cpu'));
  const scaled = objects.find((o) => o.kind === 'ScaledObject' && o.metadata.name === 'rollout-worker') as unknown as {
    spec: { triggers: { name: string; metadata: { listName: string } }[] };
  };
  const deployedPrefix = (objects.find((o) => o.kind === 'ConfigMap') as unknown as { data: Record<string, string> })
    .data.GAUNTLET_QUEUE_PREFIX!;
  // The same lists under this test's own prefix.
  const keyOf = (trigger: string) => {
    const listName = scaled.spec.triggers.find((t) => t.name === trigger)!.metadata.listName;
    expect(listName.startsWith(`${deployedPrefix}:`)).toBe(true);
    return `${prefix}${listName.slice(deployedPrefix.length)}`;
  };
  const key = keyOf('waiting');
  const activeKey = keyOf('playing');

  const connection = queueConnection(REDIS_URL, prefix);
  const submitter = new GroupSubmitter(connection);
  try {
    expect(await redis.llen(key)).toBe(0);
    await submitter.submit({
      group_id: 'scaler-key',
      task: 'click-test',
      seed: 1,
      size: 3,
      policy: { model: 'tiny', adapter: null, version: null },
      settings: {},
      submitted_at: new Date().toISOString(),
    });
    expect(await redis.llen(key)).toBe(3);
    expect(key).toBe(`${prefix}:${QUEUES.episodes}:wait`);

    // A worker taking one: it leaves the waiting list for the active one, the sum unchanged.
    const taker = new Worker(QUEUES.episodes, null, { connection: connection.redis, prefix, autorun: false });
    try {
      expect(await taker.getNextJob('scaler-key-test')).toBeDefined();
      expect({ waiting: await redis.llen(key), playing: await redis.llen(activeKey) }).toEqual({
        waiting: 2,
        playing: 1,
      });
    } finally {
      await taker.close(true);
    }
  } finally {
    await submitter.close();
  }
});
