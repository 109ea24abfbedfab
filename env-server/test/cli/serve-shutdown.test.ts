import { expect, it, vi } from 'vitest';
import { createEnvClient, type TransportName } from '@gauntlet/proto/client';
import { startServerProcess } from '../support/server-process.js';

it('SIGTERM right after the port is announced, or with a session open, shuts down cleanly (exit 0)', async () => {
  // The signal listeners exist before the "listening on" line, so an immediate stop is graceful too.
  const early = await startServerProcess();
  early.child.kill('SIGTERM');
  expect(await early.exited).toBe(0);

  const busy = await startServerProcess();
  const env = createEnvClient(busy.url);
  await env.reset({ task_name: 'click-test', seed: 1 });
  busy.child.kill('SIGTERM');
  expect(await busy.exited).toBe(0);
  expect(busy.stderr()).not.toMatch(/exiting without waiting/);
  await env.close().catch(() => undefined);
});

it('SIGTERM under load (a long step in flight on every transport) exits 0 well within the 10 s grace', async () => {
  const server = await startServerProcess(['--max-sessions', '6']);
  const urls: Record<TransportName, string> = {
    http: server.url,
    ws: server.url.replace(/^http/, 'ws'),
    grpc: server.grpcUrl,
  };
  const clients = (['http', 'ws', 'grpc', 'http', 'ws', 'grpc'] as TransportName[]).map((t) =>
    createEnvClient(urls[t]),
  );
  await Promise.all(clients.map((env) => env.reset({ task_name: 'click-test', seed: 1 })));
  // Steps that would run a minute: before, shutdown waited for them past its grace and exited 1.
  const steps = clients.map((env) => env.step('noop(60000)', { timeoutMs: 120_000 }).catch((error: unknown) => error));
  // Every step has started on the server (its episode counts it) before the signal.
  await vi.waitFor(
    async () => {
      for (const env of clients) {
        const state = await fetch(`${server.url}/state`, { headers: { 'x-session-id': env.sessionId ?? '' } });
        expect(((await state.json()) as { step_count: number }).step_count).toBe(1);
      }
    },
    { timeout: 10_000, interval: 100 },
  );
  const started = performance.now();
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  expect(performance.now() - started).toBeLessThan(8_000);
  expect(server.stderr()).not.toMatch(/exiting without waiting/);
  // Every in-flight step got an answer (an error), none hangs.
  for (const outcome of await Promise.all(steps)) expect(outcome).toBeInstanceOf(Error);
  await Promise.all(clients.map((env) => env.close().catch(() => undefined)));
});
