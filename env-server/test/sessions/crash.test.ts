import { afterEach, describe, expect, it } from 'vitest';
import { InfraError } from '@gauntlet/proto';
import { DEFAULTS, type ServerConfig } from '../../src/config.js';
import { within } from '@gauntlet/proto/deadline';
import { EnvService } from '../../src/server/env-service.js';
import { killRenderers } from '../support/renderers.js';

let service: EnvService | undefined;
afterEach(async () => {
  await service?.shutdown();
  service = undefined;
});

async function startService(overrides: Partial<ServerConfig> = {}): Promise<EnvService> {
  service = new EnvService({
    ...structuredClone(DEFAULTS),
    warmContexts: 1,
    maxSessions: 3,
    idleTtlMs: 0,
    ...overrides,
  });
  await service.start();
  return service;
}

/** What a client may read: our own words, no terminal colours, no `page.goto:`-style library call names. */
function expectCleanText(message: string): void {
  expect(message).not.toContain(String.fromCharCode(0x1b));
  expect(message).not.toMatch(/\b[a-z]+\.[a-zA-Z]+: /);
}

describe('renderer crashes', () => {
  it('a crashed warm page is discarded, never handed to a new session', async () => {
    const svc = await startService();
    expect(killRenderers(svc.pool.browserPid()!)).toBeGreaterThan(0);
    // No waiting for the crash event: the pool must tell a dead warm page even before it hears of it.
    const session = await svc.openSession('inproc');
    const result = await svc.reset(session, { task_name: 'click-test', seed: 1 });
    expect(result.observation.axtree_txt).toContain("button 'Click Me!'");
    expect(svc.pool.discardedWarm).toBeGreaterThan(0);
    expect(await svc.metrics.registry.getSingleMetricAsString('gauntlet_env_warm_pages_discarded_total')).toMatch(
      / [1-9]\d*$/m,
    );
  });

  it('killing every renderer mid-step fails the step at once with INFRA_ERROR; the next reset recovers on a fresh page', async () => {
    const svc = await startService();
    const session = await svc.openSession('inproc');
    await svc.reset(session, { task_name: 'click-test', seed: 1 });
    const stepping = svc
      .step(session, { action: { action_str: 'noop(20000)' }, timeout_s: 30 })
      .catch((error: unknown) => error);
    await expect.poll(() => session.busy).toBe(true);
    expect(killRenderers(svc.pool.browserPid()!)).toBeGreaterThan(0);

    // Before: the step ran on to its 30 s deadline. Bounded, generous: it must not hang.
    const failed = await within(stepping, 10_000);
    expect(failed).toBeInstanceOf(InfraError);
    expectCleanText((failed as Error).message);
    const again = await within(
      svc.step(session, { action: { action_str: 'noop(0)' } }).catch((error: unknown) => error),
      10_000,
    );
    expect(again).toBeInstanceOf(InfraError);

    const recovered = await within(svc.reset(session, { task_name: 'click-test', seed: 2 }), 10_000);
    expect(recovered?.observation.axtree_txt).toContain("button 'Click Me!'");
    const bid = /\[(\w+)\] button 'Click Me!'/.exec(recovered!.observation.axtree_txt)![1];
    expect((await svc.step(session, { action: { action_str: `click('${bid}')` } })).reward).toBe(1);
    // The browser itself never died: only pages were replaced.
    expect(svc.pool.restarts).toBe(0);
  });

  it('a page that crashes between steps makes the next step INFRA_ERROR with clean text, not a Playwright error', async () => {
    const svc = await startService({ warmContexts: 0 });
    const session = await svc.openSession('inproc');
    await svc.reset(session, { task_name: 'click-test', seed: 1 });
    const page = session.pages()[0]!;
    const crashed = new Promise((resolve) => page.once('crash', resolve));
    killRenderers(svc.pool.browserPid()!);
    await crashed;
    const failed = await svc.step(session, { action: { action_str: 'noop(0)' } }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(InfraError);
    expectCleanText((failed as Error).message);
    const reset = await svc.reset(session, { task_name: 'click-test', seed: 1 });
    expect(reset.observation.axtree_txt).toContain("button 'Click Me!'");
  });

  it.each([0, 1])(
    'a reset racing a renderer crash (%i) recovers on a fresh page inside the same call, never INFRA_ERROR',
    async (round) => {
      const svc = await startService({ warmContexts: 0 });
      const session = await svc.openSession('inproc');
      await svc.reset(session, { task_name: 'click-test', seed: 1 });
      // The crash lands while the reset is starting: before, the reset ran on the dead page and
      // answered INFRA_ERROR (503) once, and only the client's retry recovered.
      expect(killRenderers(svc.pool.browserPid()!)).toBeGreaterThan(0);
      const reset = await svc.reset(session, { task_name: 'click-test', seed: 2 + round });
      expect(reset.observation.axtree_txt).toContain("button 'Click Me!'");
      const bid = /\[(\w+)\] button 'Click Me!'/.exec(reset.observation.axtree_txt)![1];
      expect((await svc.step(session, { action: { action_str: `click('${bid}')` } })).reward).toBe(1);
    },
  );
});
