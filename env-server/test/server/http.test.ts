import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Observation, State } from '@gauntlet/proto';
import type { RunningServer } from '../../src/server/app.js';
import { postJson, startTestServer } from '../support/server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer({ bodyLimitBytes: 64 * 1024 });
});
afterAll(() => server.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url + path, { headers });
  return { status: response.status, body: await response.json(), headers: response.headers };
};

describe('OpenEnv HTTP routes', () => {
  it('GET /health answers healthy', async () => {
    expect(await get('/health')).toMatchObject({ status: 200, body: { status: 'healthy' } });
  });

  it('GET /metadata has string name and description', async () => {
    const { body } = await get('/metadata');
    expect(typeof body.name).toBe('string');
    expect(typeof body.description).toBe('string');
    expect(body).toHaveProperty('documentation_url');
  });

  it('GET /schema has action, observation and state schemas', async () => {
    const { body } = await get('/schema');
    expect(body.action.properties.action_str.type).toBe('string');
    expect(body.observation.properties).toHaveProperty('axtree_txt');
    expect(body.state.properties).toHaveProperty('step_count');
  });

  it('GET /openapi.json has a string info.version and the OpenEnv routes', async () => {
    const { body } = await get('/openapi.json');
    expect(body.info.version).toBe('1.0.0');
    for (const path of ['/reset', '/step', '/state', '/health', '/mcp']) expect(body.paths).toHaveProperty([path]);
  });

  it('POST /mcp answers JSON-RPC: {} is invalid, a call is unsupported', async () => {
    expect((await postJson(server.url + '/mcp', {})).body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request' },
    });
    const call = await postJson(server.url + '/mcp', { jsonrpc: '2.0', id: 7, method: 'tools/list' });
    expect(call.status).toBe(200);
    expect(call.body).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'Environment does not support MCP' },
    });
  });

  it('reset → step → state on a stateful session addressed by x-session-id', async () => {
    const reset = await postJson(server.url + '/reset', { task_name: 'click-test', seed: 3 });
    expect(reset.status).toBe(200);
    const sessionId = reset.headers.get('x-session-id')!;
    expect(sessionId).toBeTruthy();
    expect(reset.body.reward).toBe(0);
    expect(reset.body.done).toBe(false);
    Observation.parse(reset.body.observation);
    const bid = /\[(\w+)\] button 'Click Me!'/.exec(reset.body.observation.axtree_txt)?.[1];
    expect(bid).toBeTruthy();
    const step = await postJson(
      server.url + '/step',
      { action: { action_str: `click('${bid}')` } },
      { 'x-session-id': sessionId },
    );
    expect(step.status).toBe(200);
    expect(step.body).toMatchObject({ reward: 1, done: true });
    const state = await get('/state', { 'x-session-id': sessionId });
    State.parse(state.body);
    expect(state.body).toMatchObject({ step_count: 1, cum_reward: 1, task_name: 'miniwob.click-test' });
  });

  it('calls without a session id share the default HTTP session', async () => {
    const reset = await postJson(server.url + '/reset', { task_name: 'click-test', seed: 1 });
    const step = await postJson(server.url + '/step', { action: { action_str: 'noop(0)' } });
    expect(step.status).toBe(200);
    expect(step.headers.get('x-session-id')).toBe(reset.headers.get('x-session-id'));
    expect(step.body.observation.last_action_error).toBe(false);
  });

  it('a bad action is an observation with last_action_error, not an HTTP error', async () => {
    await postJson(server.url + '/reset', { task_name: 'click-test', seed: 1 });
    const step = await postJson(server.url + '/step', { action: { action_str: "click('99999')" } });
    expect(step.status).toBe(200);
    expect(step.body.observation.last_action_error).toBe(true);
    expect(step.body.observation.error).toBe('ValueError: Could not find element with bid "99999"');
    expect(step.body.metadata.browsergym_obs.last_action_error).toBe(step.body.observation.error);
  });

  it('validation errors are 422 with FastAPI detail items', async () => {
    const bad = await postJson(server.url + '/reset', { seed: -1 });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({
      loc: ['body', 'seed'],
      type: expect.any(String),
      msg: expect.any(String),
    });
    const unknownField = await postJson(server.url + '/step', { action: { action_str: 'noop()', extra: 1 } });
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.detail[0].loc).toEqual(['body', 'action']);
    const missing = await postJson(server.url + '/step', {});
    expect(missing.status).toBe(422);
  });

  it('unknown tasks are 422 and list what exists', async () => {
    const bad = await postJson(server.url + '/reset', { task_name: 'no-such-task' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toMatch(/Unknown task "no-such-task". Available: .*miniwob.click-test/);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'task_name'], msg: 'Unknown task "no-such-task"' });
    // The list of tasks is long: the body carries it once.
    expect(JSON.stringify(bad.body).split('miniwob.click-test,')).toHaveLength(2);
  });

  it('a failed reset without a session id opens no default session', async () => {
    // Close the default session earlier tests opened, so this reset would have to open one.
    const prior = await postJson(server.url + '/reset', { task_name: 'click-test', seed: 1 });
    await fetch(`${server.url}/sessions/${prior.headers.get('x-session-id')}`, { method: 'DELETE' });
    const open = server.service.sessions.size;
    for (const body of [{ task_name: 'no-such-task' }, { task_name: 'click-test', seed: -1 }]) {
      const failed = await postJson(server.url + '/reset', body);
      expect(failed.status).toBe(422);
      expect(failed.headers.get('x-session-id')).toBeNull();
      // Before: the session stayed open, holding a browser context and a capacity slot until it idled out.
      expect(server.service.sessions.size).toBe(open);
    }
    expect((await postJson(server.url + '/step', { action: { action_str: 'noop(0)' } })).status).toBe(404);
  });

  it('malformed JSON is a 422 json_invalid and the server keeps serving', async () => {
    const bad = await postJson(server.url + '/reset', '{"seed": 1,');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].type).toBe('json_invalid');
    expect((await get('/health')).status).toBe(200);
  });

  it('a body nested 5,000 deep is a 422 with our detail, and the server keeps serving', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    for (const body of [`{"seed":${deep}}`, `{"action":{"action_str":"noop()","metadata":{"x":${deep}}}}`]) {
      const reply = await postJson(`${server.url}/reset`, body);
      expect(reply.status).toBe(422);
      expect(reply.body.detail[0]).toMatchObject({ type: 'too_deep', loc: ['body'] });
      expect(reply.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect(await get('/health')).toMatchObject({ status: 200 });
  });

  it('JSON bodies still get prototype-poisoning protection', async () => {
    const reply = await postJson(`${server.url}/reset`, '{"seed":1,"__proto__":{"polluted":true}}');
    expect(reply.status).toBe(422);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('oversize bodies are 413 PAYLOAD_TOO_LARGE', async () => {
    const big = await postJson(server.url + '/step', {
      action: { action_str: `send_msg_to_user('${'x'.repeat(100 * 1024)}')` },
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('unknown session ids are 404 SESSION_NOT_FOUND', async () => {
    const step = await postJson(server.url + '/step', { action: { action_str: 'noop()' } }, { 'x-session-id': 'nope' });
    expect(step.status).toBe(404);
    expect(step.body.error.code).toBe('SESSION_NOT_FOUND');
  });

  it('explicit sessions open and close', async () => {
    const opened = await postJson(server.url + '/sessions', {});
    const id = opened.body.session_id;
    expect(server.service.sessions.find(id)).toBeDefined();
    const closed = await fetch(`${server.url}/sessions/${id}`, { method: 'DELETE' });
    expect(closed.status).toBe(200);
    expect(server.service.sessions.find(id)).toBeUndefined();
  });

  it('GET /metrics exposes sessions, steps and latency histograms', async () => {
    const response = await fetch(server.url + '/metrics');
    const text = await response.text();
    for (const name of [
      'gauntlet_env_sessions_active',
      'gauntlet_env_steps_total',
      'gauntlet_env_step_seconds_bucket',
      'gauntlet_env_browser_restarts_total',
    ])
      expect(text).toContain(name);
  });
});

describe('bearer token', () => {
  let secured: RunningServer;
  beforeAll(async () => {
    secured = await startTestServer({ bearerToken: 's3cret' });
  });
  afterAll(() => secured.close());

  it('protects every route but /health', async () => {
    expect((await fetch(secured.url + '/health')).status).toBe(200);
    const denied = await postJson(secured.url + '/reset', {});
    expect(denied.status).toBe(401);
    expect(denied.body.error.code).toBe('UNAUTHORIZED');
    const allowed = await postJson(secured.url + '/reset', { seed: 1 }, { authorization: 'Bearer s3cret' });
    expect(allowed.status).toBe(200);
  });
});
