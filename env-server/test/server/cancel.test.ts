import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Metadata } from '@grpc/grpc-js';
import type { RunningServer } from '../../src/server/app.js';
import { postJson, startTestServer, WsTestClient } from '../support/server.js';
import { ok, rawClient } from '../grpc/raw-client.js';
import type { messages as pb } from '@gauntlet/proto/grpc';

/**
 * A caller that goes away mid-step (disconnect, cancelled call) stops the step's work at once and
 * is counted as `cancelled`, not as an infrastructure error.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ maxSessions: 3 });
});
afterAll(() => server.close());
afterEach(async () => {
  await vi.waitFor(() => expect(server.service.sessions.all().filter((s) => s.busy)).toHaveLength(0));
});

const LONG_STEP = 'noop(20000)';

async function outcomes(): Promise<Record<string, number>> {
  const text = await server.service.metrics.registry.getSingleMetricAsString('gauntlet_env_steps_total');
  return Object.fromEntries(
    [...text.matchAll(/outcome="(\w+)"\} (\d+)/g)].map(([, outcome, count]) => [outcome!, Number(count)]),
  );
}

async function errorCodes(): Promise<string> {
  return server.service.metrics.registry.getSingleMetricAsString('gauntlet_env_errors_total');
}

/** Resolves once some session is running a step. */
const someSessionBusy = () => vi.waitFor(() => expect(server.service.sessions.all().some((s) => s.busy)).toBe(true));

describe('a caller that goes away mid-step', () => {
  it('over /ws: the disconnect counts as cancelled, never INFRA_ERROR, and frees the session at once', async () => {
    const before = await outcomes();
    const client = await WsTestClient.connect(server.url);
    expect(await client.request({ type: 'reset', data: { task_name: 'click-test', seed: 1 } })).toMatchObject({
      type: 'observation',
    });
    client.sendRaw(JSON.stringify({ type: 'step', data: { action_str: LONG_STEP } }));
    await someSessionBusy();
    client.close();
    await vi.waitFor(async () => expect((await outcomes()).cancelled ?? 0).toBe((before.cancelled ?? 0) + 1));
    expect((await outcomes()).INFRA_ERROR).toBeUndefined();
    expect(await errorCodes()).not.toContain('INFRA_ERROR');
    await vi.waitFor(() => expect(server.service.sessions.size).toBe(0));
  });

  it('over HTTP: an aborted request stops its step; the session stays usable', async () => {
    const before = await outcomes();
    const reset = await postJson(`${server.url}/reset`, { task_name: 'click-test', seed: 1 });
    const sessionId = reset.headers.get('x-session-id')!;
    const session = server.service.sessions.get(sessionId);
    const controller = new AbortController();
    const request = fetch(`${server.url}/step`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', 'x-session-id': sessionId },
      body: JSON.stringify({ action: { action_str: LONG_STEP } }),
    }).catch((error: unknown) => error);
    await someSessionBusy();
    controller.abort();
    await request;
    await vi.waitFor(async () => expect((await outcomes()).cancelled ?? 0).toBe((before.cancelled ?? 0) + 1));
    await vi.waitFor(() => expect(session.busy).toBe(false));
    const next = await postJson(
      `${server.url}/step`,
      { action: { action_str: 'noop(0)' } },
      { 'x-session-id': sessionId },
    );
    expect(next.status).toBe(200);
    await fetch(`${server.url}/sessions/${sessionId}`, { method: 'DELETE' });
  });

  it('over gRPC: a cancelled unary Step stops running', async () => {
    const before = await outcomes();
    const client = rawClient(server.grpcUrl);
    try {
      const opened = await ok<pb.ResetReplyOut>(client, 'Reset', { task_name: 'click-test', seed: 1 });
      const call = client.Step(
        { session_id: opened.session_id, action: { action_str: LONG_STEP } },
        new Metadata(),
        {},
        () => undefined,
      );
      await someSessionBusy();
      call.cancel();
      // Before: the step ran its 20 s on, holding the session.
      await vi.waitFor(() => expect(server.service.sessions.get(opened.session_id).busy).toBe(false));
      expect((await outcomes()).cancelled).toBe((before.cancelled ?? 0) + 1);
      await ok(client, 'Close', { session_id: opened.session_id });
    } finally {
      client.getChannel().close();
    }
  });
});
