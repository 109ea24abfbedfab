import { CapacityError, InfraError, ValidationError, type StepResult } from '@gauntlet/proto';
import type { EnvClient } from '@gauntlet/proto/client';
import { describe, expect, it } from 'vitest';
import { EnvPool } from './env-pool.js';

// Unit test with in-memory clients; the real servers are exercised in test/queue.
const OK = { done: false } as StepResult;

function pool(
  behaviour: Record<string, { reset?: () => Promise<StepResult>; step?: () => Promise<StepResult> }>,
  healthy: Record<string, boolean> = {},
) {
  const made: string[] = [];
  const closed: string[] = [];
  const envs = new EnvPool(Object.keys(behaviour), {
    probe: async (url) => healthy[url] ?? true,
    connect: (url) => {
      made.push(url);
      const b = behaviour[url]!;
      return {
        transport: 'grpc',
        target: url,
        sessionId: undefined,
        reset: b.reset ?? (async () => OK),
        step: b.step ?? (async () => OK),
        state: async () => {
          throw new Error('unused');
        },
        record: async () => {
          throw new Error('unused');
        },
        close: async () => void closed.push(url),
      } satisfies EnvClient;
    },
  });
  return { envs, made, closed };
}

describe('EnvLease', () => {
  it('takes servers in round robin, and reuses a cleanly released session', async () => {
    const { envs, made } = pool({ 'grpc://a:1': {}, 'grpc://b:1': {} });
    await envs.start();
    const first = envs.lease();
    await first.reset();
    const second = envs.lease();
    await second.reset();
    expect([first.url, second.url]).toEqual(['grpc://a:1', 'grpc://b:1']);
    first.release(true);
    await envs.lease().reset();
    expect(made).toEqual(['grpc://a:1', 'grpc://b:1']);
  });

  it('moves a reset to the next server when one is full or unreachable, marking only the unreachable one down', async () => {
    const { envs, closed } = pool({
      'grpc://full:1': { reset: () => Promise.reject(new CapacityError(8, 8)) },
      'grpc://down:1': { reset: () => Promise.reject(new InfraError('connection refused')) },
      'grpc://ok:1': {},
    });
    await envs.start();
    const lease = envs.lease();
    await lease.reset();
    expect(lease.url).toBe('grpc://ok:1');
    expect(envs.servers.map((s) => s.healthy)).toEqual([true, false, true]);
    expect(closed).toEqual(['grpc://down:1']);
  });

  it('does not move a wrong request (it would be wrong everywhere), and fails with the last error when every server refuses', async () => {
    const bad = pool({
      'grpc://a:1': { reset: () => Promise.reject(new ValidationError('Unknown task "nope"')) },
      'grpc://b:1': {},
    });
    await bad.envs.start();
    await expect(bad.envs.lease().reset()).rejects.toBeInstanceOf(ValidationError);
    expect(bad.made).toEqual(['grpc://a:1']);
    const full = pool({ 'grpc://a:1': { reset: () => Promise.reject(new CapacityError(1, 1)) } });
    await full.envs.start();
    await expect(full.envs.lease().reset()).rejects.toBeInstanceOf(CapacityError);
  });

  it('skips servers that fail their health check, but tries them all when none passes', async () => {
    const { envs } = pool({ 'grpc://a:1': {}, 'grpc://b:1': {} }, { 'grpc://a:1': false });
    await envs.start();
    for (let i = 0; i < 3; i++)
      expect(
        await (async () => {
          const l = envs.lease();
          await l.reset();
          return l.url;
        })(),
      ).toBe('grpc://b:1');
    const dark = pool({ 'grpc://a:1': {} }, { 'grpc://a:1': false });
    await dark.envs.start();
    const lease = dark.envs.lease();
    await lease.reset();
    expect(lease.url).toBe('grpc://a:1');
  });

  it('a step that finds the server gone marks it down and closes the session at release', async () => {
    const { envs, closed } = pool({ 'grpc://a:1': { step: () => Promise.reject(new InfraError('stream broke')) } });
    await envs.start();
    const lease = envs.lease();
    await lease.reset();
    await expect(lease.step('noop()')).rejects.toBeInstanceOf(InfraError);
    lease.release(true);
    expect(envs.servers[0]!.healthy).toBe(false);
    expect(closed).toEqual(['grpc://a:1']);
  });
});
