import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEnvClient } from '@gauntlet/proto/client';
import type { RunningServer } from '../../src/server/app.js';
import { startTestServer } from '../support/server.js';

/** A port that was free a moment ago (the server below is told to use it, and must not). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let server: RunningServer;
let grpcPort: number;
beforeAll(async () => {
  grpcPort = await freePort();
  server = await startTestServer({ grpcEnabled: false, grpcPort });
});
afterAll(() => server.close());

it('with gRPC off serves HTTP and WebSocket and opens no gRPC port', async () => {
  expect(server.grpcUrl).toBe('');
  // Nothing listens where gRPC would have: binding it ourselves succeeds.
  const taken = createServer();
  await new Promise<void>((resolve, reject) => {
    taken.once('error', reject);
    taken.listen(grpcPort, '127.0.0.1', resolve);
  });
  await new Promise<void>((resolve) => taken.close(() => resolve()));

  const env = createEnvClient(server.url.replace('http', 'ws'));
  try {
    const first = await env.reset({ task_name: 'click-test', seed: 1 });
    expect(first.observation.axtree_txt).toContain('Click Me!');
  } finally {
    await env.close();
  }
});
