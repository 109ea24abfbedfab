import { describe, expect, it, vi } from 'vitest';
import { pool, slots } from '../../test/support/memory-envs.js';
import { followEnvCapacity } from './follow-env-capacity.js';

// Unit test: in-memory env clients on one server of `max` slots; a plain object stands for the BullMQ worker.
const server = (max: number) => pool({ 'grpc://a:1': { slots: slots(max) } }).envs;

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
