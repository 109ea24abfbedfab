import { CapacityError, InfraError, ValidationError } from '@gauntlet/proto';
import { describe, expect, it, vi } from 'vitest';
import { pool, slots } from '../../test/support/memory-envs.js';
import { EnvBusyError } from './env-busy.js';

// Unit test with in-memory clients (test/support/memory-envs.ts); the real servers are exercised in test/queue.

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
      'grpc://full:1': { open: () => Promise.reject(new CapacityError(8, 8)) },
      'grpc://down:1': { open: () => Promise.reject(new InfraError('connection refused')) },
      'grpc://ok:1': {},
    });
    await envs.start();
    const lease = envs.lease();
    await lease.reset();
    expect(lease.url).toBe('grpc://ok:1');
    expect(envs.servers.map((s) => s.healthy)).toEqual([true, false, true]);
    // Neither opened a session: closing them frees no slot.
    expect(closed).toEqual(['grpc://full:1', 'grpc://down:1']);
  });

  it('does not move a wrong request (it would be wrong everywhere), and fails with the last error when every server refuses', async () => {
    const bad = pool({
      'grpc://a:1': { reset: () => Promise.reject(new ValidationError('Unknown task "nope"')) },
      'grpc://b:1': {},
    });
    await bad.envs.start();
    await expect(bad.envs.lease().reset()).rejects.toBeInstanceOf(ValidationError);
    expect(bad.made).toEqual(['grpc://a:1']);
    const full = pool({ 'grpc://a:1': { open: () => Promise.reject(new CapacityError(1, 1)) } });
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

describe('EnvLease waiting for capacity', () => {
  it('waits while the server is full and gets the session an ended episode gives back (no new session opened)', async () => {
    const server = slots(1);
    const { envs } = pool({ 'grpc://a:1': { slots: server } });
    const first = envs.lease();
    await first.acquire();
    const second = envs.lease();
    let held = false;
    const waiting = second.acquire({ waitMs: 30_000 }).then(() => (held = true));
    await vi.waitFor(() => expect(envs.waiting).toBe(1));
    expect(held).toBe(false);
    first.release(true);
    await waiting;
    expect(second.url).toBe('grpc://a:1');
    expect((await second.reset()).done).toBe(false);
    // One slot in use all along: the first lease's session, passed on (a new one would have been refused).
    expect([server.used, envs.servers[0]!.leased]).toEqual([1, 1]);
  });

  it('a broken session given back is closed, which frees its slot for the waiting episode', async () => {
    const server = slots(1);
    const { envs } = pool({ 'grpc://a:1': { slots: server } });
    const first = envs.lease();
    await first.acquire();
    const second = envs.lease();
    const held = second.acquire({ waitMs: 30_000 });
    await vi.waitFor(() => expect(envs.waiting).toBe(1));
    first.release(false);
    await held;
    // The second opened its own session: possible only once the first's slot was freed.
    expect([server.used, envs.servers[0]!.leased]).toEqual([1, 1]);
  });

  it('gives up after waitMs with EnvBusyError (the server stays healthy) and stops at once when cancelled', async () => {
    const server = slots(0);
    const { envs } = pool({ 'grpc://a:1': { slots: server } });
    const started = Date.now();
    const busy = await envs
      .lease()
      .acquire({ waitMs: 300 })
      .catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(EnvBusyError);
    expect((busy as Error).message).toMatch(
      /no env session free within \d+ ms on grpc:\/\/a:1 \(Server at capacity: 0\/0/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(envs.servers[0]!.healthy).toBe(true);
    const cancel = new AbortController();
    const cancelled = envs.lease().acquire({ waitMs: 60_000, signal: cancel.signal });
    cancel.abort(new Error('job cancelled'));
    await expect(cancelled).rejects.toThrow('job cancelled');
  });

  it("closes an idle session after idleMs, so another worker's waiting episode gets its slot", async () => {
    const server = slots(1);
    const mine = pool({ 'grpc://a:1': { slots: server } }, {}, { idleMs: 100 });
    const theirs = pool({ 'grpc://a:1': { slots: server } });
    const lease = mine.envs.lease();
    await lease.acquire();
    lease.release(true);
    const waiting = theirs.envs.lease();
    await waiting.acquire({ waitMs: 30_000 });
    expect([mine.closed, server.used]).toEqual([['grpc://a:1'], 1]);
  });
});
