import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Observation, State } from '@gauntlet/proto';
import type { RunningServer } from '../../src/server/app.js';
import { WsTestClient, startTestServer } from '../support/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ maxSessions: 2, wsFrameLimitBytes: 32 * 1024 });
});
afterAll(() => server.close());

const sessionsDrainTo = (n: number) => vi.waitFor(() => expect(server.service.sessions.size).toBe(n));

describe('OpenEnv /ws protocol', () => {
  it('reset, step and state frames answer in order', async () => {
    const client = await WsTestClient.connect(server.url);
    const reset = await client.request({
      type: 'reset',
      data: { seed: 5, task_name: 'click-test', episode_id: 'e1', unknown_key: 'dropped' },
    });
    expect(reset.type).toBe('observation');
    Observation.parse(reset.data.observation);
    expect(reset.data).toMatchObject({ reward: 0, done: false });
    expect(reset.data.metadata.browsergym_obs.goal).toBe(reset.data.observation.goal);
    const bid = /\[(\w+)\] button 'Click Me!'/.exec(reset.data.observation.axtree_txt)![1];
    const step = await client.request({ type: 'step', data: { action_str: `click('${bid}')`, metadata: {} } });
    expect(step).toMatchObject({ type: 'observation', data: { reward: 1, done: true } });
    const state = await client.request({ type: 'state' });
    expect(state.type).toBe('state');
    State.parse(state.data);
    expect(state.data).toMatchObject({ episode_id: 'e1', step_count: 1, cum_reward: 1 });
    client.close();
    await sessionsDrainTo(0);
  });

  it('pipelined requests get one reply each, in order', async () => {
    const client = await WsTestClient.connect(server.url);
    client.sendRaw(JSON.stringify({ type: 'reset', data: { seed: 1 } }));
    client.sendRaw(JSON.stringify({ type: 'step', data: { action_str: 'noop(0)' } }));
    client.sendRaw(JSON.stringify({ type: 'state' }));
    expect((await client.next()).type).toBe('observation');
    expect((await client.next()).data.metadata.browsergym_obs.last_action).toBe('noop(0)');
    expect((await client.next()).data.step_count).toBe(1);
    client.close();
    await sessionsDrainTo(0);
  });

  it('answers every recoverable error code and keeps the socket open', async () => {
    const client = await WsTestClient.connect(server.url);
    expect(await client.request({ type: 'step', data: { action_str: 'noop()' } })).toMatchObject({
      type: 'error',
      data: { code: 'EXECUTION_ERROR' },
    });
    client.sendRaw('{not json');
    expect(await client.next()).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } });
    expect(await client.request({ type: 'dance' })).toMatchObject({ type: 'error', data: { code: 'UNKNOWN_TYPE' } });
    const extraKey = await client.request({ type: 'state', extra: 1 });
    expect(extraKey).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    expect(extraKey.data.errors.length).toBeGreaterThan(0);
    await client.request({ type: 'reset', data: { seed: 1 } });
    const badAction = await client.request({ type: 'step', data: { action_str: 'noop()', wrong: true } });
    expect(badAction).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    expect(badAction.data.errors[0].loc).toEqual(['body', 'action']);
    expect(await client.request({ type: 'reset', data: { seed: -4 } })).toMatchObject({
      type: 'error',
      data: { code: 'VALIDATION_ERROR' },
    });
    expect(await client.request({ type: 'mcp', data: {} })).toMatchObject({
      type: 'mcp',
      data: { error: { code: -32600 } },
    });
    // Still alive after all of that.
    expect((await client.request({ type: 'step', data: { action_str: 'noop(0)' } })).type).toBe('observation');
    client.close();
    await sessionsDrainTo(0);
  });

  it('close ends the session without a reply', async () => {
    const client = await WsTestClient.connect(server.url);
    await client.request({ type: 'reset', data: {} });
    expect(server.service.sessions.size).toBe(1);
    client.sendRaw(JSON.stringify({ type: 'close' }));
    const closed = await client.closed;
    expect(closed.code).toBe(1000);
    await sessionsDrainTo(0);
  });

  it('refuses connections beyond capacity with CAPACITY_REACHED, then closes', async () => {
    const a = await WsTestClient.connect(server.url);
    const b = await WsTestClient.connect(server.url);
    await a.request({ type: 'state' });
    await b.request({ type: 'state' });
    const c = await WsTestClient.connect(server.url);
    expect(await c.next()).toMatchObject({
      type: 'error',
      data: { code: 'CAPACITY_REACHED', active_sessions: 2, max_sessions: 2 },
    });
    await c.closed;
    a.close();
    b.close();
    await sessionsDrainTo(0);
  });

  it('a disconnect frees the slot', async () => {
    const clients = [await WsTestClient.connect(server.url), await WsTestClient.connect(server.url)];
    for (const client of clients) await client.request({ type: 'state' });
    clients[0]!.socket.terminate();
    await sessionsDrainTo(1);
    const replacement = await WsTestClient.connect(server.url);
    expect((await replacement.request({ type: 'state' })).type).toBe('state');
    replacement.close();
    clients[1]!.close();
    await sessionsDrainTo(0);
  });

  it('an oversize frame closes that socket (1009) and the server keeps serving others', async () => {
    const victim = await WsTestClient.connect(server.url);
    const bystander = await WsTestClient.connect(server.url);
    await bystander.request({ type: 'reset', data: { seed: 2 } });
    victim.sendRaw(
      JSON.stringify({ type: 'step', data: { action_str: `send_msg_to_user('${'x'.repeat(64 * 1024)}')` } }),
    );
    expect((await victim.closed).code).toBe(1009);
    expect((await bystander.request({ type: 'step', data: { action_str: 'noop(0)' } })).type).toBe('observation');
    bystander.close();
    await sessionsDrainTo(0);
  });
});

describe('fatal errors close the socket', () => {
  it('FACTORY_ERROR when the environment cannot be created', async () => {
    const broken = await startTestServer({ chromiumPath: '/bin/false' }, { waitForBrowser: false });
    try {
      const client = await WsTestClient.connect(broken.url);
      const frame = await client.next();
      expect(frame).toMatchObject({ type: 'error', data: { code: 'FACTORY_ERROR' } });
      expect(frame.data.message).toMatch(/Could not create the environment/);
      expect((await client.closed).code).toBe(1008);
      expect((await fetch(broken.url + '/health')).status).toBe(200);
    } finally {
      await broken.close();
    }
  });

  it('SESSION_ERROR when the server reaped the session, then the socket closes', async () => {
    const client = await WsTestClient.connect(server.url);
    await client.request({ type: 'reset', data: { seed: 1 } });
    const [session] = [...server.service.sessions.all()];
    session!.lastActivity = 0;
    await server.service.sessions.reapIdle();
    expect(await client.request({ type: 'step', data: { action_str: 'noop(0)' } })).toMatchObject({
      type: 'error',
      data: { code: 'SESSION_ERROR' },
    });
    expect((await client.closed).code).toBe(1008);
  });

  it('disconnects leak no browser context', async () => {
    const clients = await Promise.all([WsTestClient.connect(server.url), WsTestClient.connect(server.url)]);
    for (const client of clients) await client.request({ type: 'reset', data: { seed: 1 } });
    for (const client of clients) client.socket.terminate();
    await sessionsDrainTo(0);
    // Only the warm pool's contexts remain.
    await vi.waitFor(() => expect(server.service.pool.openContexts()).toBe(server.service.config.warmContexts));
  });
});

describe('hostile frames', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('frames nested 5,000 deep are VALIDATION_ERRORs and the same socket keeps serving', async () => {
    const client = await WsTestClient.connect(server.url);
    const frames = [
      `{"type":"reset","data":{"seed":${deep(5000)}}}`,
      `{"type":"step","data":{"action_str":"noop()","metadata":{"x":${deep(5000)}}}}`,
      `{"type":"reset","data":{"options":{"x":${deep(65)}}}}`,
    ];
    for (const frame of frames) {
      client.sendRaw(frame);
      const reply = await client.next();
      expect(reply).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
      expect(reply.data.message).toMatch(/more than 64 levels deep/);
    }
    // Under the limit, nesting is fine (step metadata is free-form; task options are checked by the task).
    expect(await client.request({ type: 'reset', data: { task_name: 'click-test', seed: 1 } })).toMatchObject({
      type: 'observation',
    });
    expect(
      await client.request({ type: 'step', data: { action_str: 'noop()', metadata: { x: JSON.parse(deep(60)) } } }),
    ).toMatchObject({ type: 'observation' });
    client.close();
    await sessionsDrainTo(0);
  });

  it('an invalid field holding a large value is echoed back bounded, not whole', async () => {
    const client = await WsTestClient.connect(server.url);
    const reply = await client.request({
      type: 'reset',
      data: { seed: { nested: { deeper: { deepest: 'x'.repeat(20_000) } } } },
    });
    expect(reply).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(reply).length).toBeLessThan(2_000);
    client.close();
    await sessionsDrainTo(0);
  });
});
