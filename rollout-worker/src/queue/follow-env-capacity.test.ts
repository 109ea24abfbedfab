import { CapacityError, type StepResult } from '@gauntlet/proto';
import type { EnvClient } from '@gauntlet/proto/client';
import { describe, expect, it, vi } from 'vitest';
import { EnvPool } from '../env/env-pool.js';
import { followEnvCapacity } from './follow-env-capacity.js';

// Unit test: in-memory env clients on one server of `max` slots; a plain object stands for the BullMQ worker.
function server(max: number) {
  let used = 0;
  const envs = new EnvPool(['grpc://a:1'], {
    probe: async () => true,
    connect: (url) => {
      let opened = false;
      return {
        transport: 'grpc',
        target: url,
        sessionId: undefined,
        open: async () => {
          if (opened) return;
          if (used >= max) throw new CapacityError(used, max);
          used += 1;
          opened = true;
        },
        reset: async () => ({ done: false }) as StepResult,
        step: async () => ({ done: true }) as StepResult,
        state: () => Promise.reject(new Error('unused')),
        record: () => Promise.reject(new Error('unused')),
        close: async () => void (opened && (used -= 1)),
      } satisfies EnvClient;
    },
  });
  return envs;
}

describe('followEnvCapacity', () => {
  it('takes one job more than its sessions while an episode waits, and grows back one at a time when sessions come at once', async () => {
    const envs = server(2);
    const worker = { concurrency: 6 };
    followEnvCapacity(worker, envs, 6);
    const playing = [envs.lease(), envs.lease()];
    for (const lease of playing) await lease.acquire();
    expect(worker.concurrency).toBe(6);
    const late = envs.lease();
    const held = late.acquire({ waitMs: 30_000 });
    await vi.waitFor(() => expect(envs.waiting).toBe(1));
    // Two sessions held, one episode waiting: three jobs at once, not six.
    expect(worker.concurrency).toBe(3);
    playing[0]!.release(false);
    await held;
    expect(worker.concurrency).toBe(3);
    playing[1]!.release(false);
    late.release(false);
    await vi.waitFor(() => expect(envs.held).toBe(0));
    const next = envs.lease();
    await next.acquire();
    expect(worker.concurrency).toBe(4);
  });

  it('never goes below one job nor above the configured concurrency', async () => {
    const envs = server(0);
    const worker = { concurrency: 2 };
    const stop = followEnvCapacity(worker, envs, 2);
    await expect(envs.lease().acquire({ waitMs: 100 })).rejects.toThrow(/no env session free/);
    expect(worker.concurrency).toBe(1);
    stop();
    const open = server(4);
    followEnvCapacity(worker, open, 2);
    for (let i = 0; i < 3; i++) await open.lease().acquire();
    expect(worker.concurrency).toBe(2);
  });
});
