// The KEDA trigger counts the Redis list k8s/ names; this checks, on a real Redis with the
// installed BullMQ, that submitted episode jobs wait in exactly that list (a BullMQ upgrade that
// moved them would leave the workers unscaled).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
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

it("counts a submitted group's episodes in the list the ScaledObject watches", async () => {
  const objects = renderKustomization(join(K8S, 'overlays', 'cpu'));
  const scaled = objects.find((o) => o.kind === 'ScaledObject' && o.metadata.name === 'rollout-worker') as unknown as {
    spec: { triggers: { metadata: { listName: string } }[] };
  };
  const deployedPrefix = (objects.find((o) => o.kind === 'ConfigMap') as unknown as { data: Record<string, string> })
    .data.GAUNTLET_QUEUE_PREFIX!;
  const listName = scaled.spec.triggers[0]!.metadata.listName;
  expect(listName.startsWith(`${deployedPrefix}:`)).toBe(true);
  // The same list under this test's own prefix.
  const key = `${prefix}${listName.slice(deployedPrefix.length)}`;

  const submitter = new GroupSubmitter(queueConnection(REDIS_URL, prefix));
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
  } finally {
    await submitter.close();
  }
});
