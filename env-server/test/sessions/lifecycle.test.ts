import { afterEach, describe, expect, it, vi } from 'vitest';
import { InfraError } from '@gauntlet/proto';
import { DEFAULTS, type ServerConfig } from '../../src/config.js';
import { EnvService } from '../../src/server/env-service.js';

let service: EnvService | undefined;
afterEach(async () => {
  await service?.shutdown();
  service = undefined;
});

async function startService(overrides: Partial<ServerConfig> = {}): Promise<EnvService> {
  service = new EnvService({ ...structuredClone(DEFAULTS), warmContexts: 1, maxSessions: 3, ...overrides });
  await service.start();
  return service;
}

describe('session leases', () => {
  it('idle sessions are reaped and their contexts closed', async () => {
    const svc = await startService({ idleTtlMs: 60_000 });
    const idle = await svc.openSession('inproc');
    const active = await svc.openSession('inproc');
    active.touch();
    idle.lastActivity = Date.now() - 120_000;
    expect(await svc.sessions.reapIdle()).toBe(1);
    expect(svc.sessions.find(idle.id)).toBeUndefined();
    expect(idle.isClosed).toBe(true);
    expect(svc.sessions.find(active.id)).toBeDefined();
    const metrics = await svc.metrics.registry.getSingleMetricAsString('gauntlet_env_sessions_closed_total');
    expect(metrics).toContain('reason="idle"} 1');
  });

  it('the reaper runs on its own timer', async () => {
    const svc = await startService({ idleTtlMs: 200 });
    const session = await svc.openSession('inproc');
    await vi.waitFor(() => expect(svc.sessions.find(session.id)).toBeUndefined(), { timeout: 5_000, interval: 50 });
  });

  it('busy sessions are not reaped', async () => {
    const svc = await startService({ idleTtlMs: 60_000 });
    const session = await svc.openSession('inproc');
    await svc.reset(session, { seed: 1 });
    const stepping = svc.step(session, { action: { action_str: 'noop(300)' } });
    session.lastActivity = Date.now() - 120_000;
    expect(await svc.sessions.reapIdle()).toBe(0);
    await stepping;
  });

  it('capacity counts sessions still opening', async () => {
    const svc = await startService({ maxSessions: 2 });
    const results = await Promise.allSettled([
      svc.openSession('inproc'),
      svc.openSession('inproc'),
      svc.openSession('inproc'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason.code).toBe('CAPACITY_REACHED');
  });

  it('same seed gives the same observation; different seeds differ', async () => {
    const svc = await startService();
    const a = await svc.openSession('inproc');
    const b = await svc.openSession('inproc');
    const first = await svc.reset(a, { task_name: 'click-button', seed: 11 });
    const again = await svc.reset(b, { task_name: 'click-button', seed: 11 });
    const other = await svc.reset(a, { task_name: 'click-button', seed: 12 });
    expect(again.observation.axtree_txt).toBe(first.observation.axtree_txt);
    expect(again.observation.pruned_html).toBe(first.observation.pruned_html);
    expect(other.observation.pruned_html).not.toBe(first.observation.pruned_html);
  });
});

describe('browser death', () => {
  it('a killed browser gives INFRA_ERROR mid-episode, then reset recovers on a relaunched browser', async () => {
    const svc = await startService();
    const session = await svc.openSession('inproc');
    await svc.reset(session, { task_name: 'click-test', seed: 1 });
    const pid = svc.pool.browserPid();
    expect(pid).toBeGreaterThan(0);
    const lost = new Promise((resolve) => svc.pool.once('browser-lost', resolve));
    process.kill(pid!, 'SIGKILL');
    await lost;
    await expect(svc.step(session, { action: { action_str: 'noop(0)' } })).rejects.toBeInstanceOf(InfraError);
    const recovered = await svc.reset(session, { task_name: 'click-test', seed: 1 });
    expect(recovered.observation.axtree_txt).toContain("button 'Click Me!'");
    expect(svc.pool.restarts).toBe(1);
    expect(await svc.metrics.registry.getSingleMetricAsString('gauntlet_env_browser_restarts_total')).toMatch(/ 1$/m);
    const fresh = await svc.openSession('inproc');
    expect((await svc.reset(fresh, { seed: 2 })).done).toBe(false);
  });
});
