import { expect, it } from 'vitest';
import { createEnvClient } from '@gauntlet/proto/client';
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
