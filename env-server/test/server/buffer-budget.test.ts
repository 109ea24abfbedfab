import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../../src/server/app.js';
import { WsTestClient, startTestServer } from '../support/server.js';
import { paddedStateFrame } from '../fuzz/buffer-attacks.js';

// Two connections, each within its own limits (one 4 MB request waiting), are over a 6 MB server.
let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ maxBufferedBytes: 6 * 1024 * 1024 });
});
afterAll(() => server.close());

async function openClient(): Promise<WsTestClient> {
  const client = await WsTestClient.connect(server.url);
  await client.request({ type: 'reset', data: { task_name: 'click-test', seed: 1 } });
  return client;
}

describe('--max-buffered-bytes bounds what all connections hold together', () => {
  it('refuses a request that would wait past it, never one answered at once; a closed connection gives its share back', async () => {
    const frame = paddedStateFrame(4 * 1024 * 1024 - 64);
    const first = await openClient();
    const second = await openClient();
    // The first connection's 4 MB request waits behind a long step; the server holds it.
    first.sendRaw(JSON.stringify({ type: 'step', data: { action_str: 'noop(30000)' } }));
    first.sendRaw(frame);
    await vi.waitFor(() => expect(server.service.buffers.usedBytes).toBeGreaterThanOrEqual(frame.length));
    // A request the second connection would have to hold is refused...
    second.sendRaw(JSON.stringify({ type: 'step', data: { action_str: 'noop(3000)' } }));
    second.sendRaw(frame);
    expect((await second.next()).type).toBe('observation');
    const refused = await second.next();
    expect(refused).toMatchObject({ type: 'error', data: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(refused.data.message).toContain('--max-buffered-bytes');
    // ...one it answers at once is not, and the refusal cost the connection nothing.
    second.sendRaw(frame);
    expect((await second.next()).type).toBe('state');
    first.close();
    await vi.waitFor(() => expect(server.service.buffers.usedBytes).toBe(0));
    second.close();
    await vi.waitFor(() => expect(server.service.sessions.size).toBe(0));
  });
});
