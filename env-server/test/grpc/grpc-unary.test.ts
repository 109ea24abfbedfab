import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { status as Status } from '@grpc/grpc-js';
import { StepResult } from '@gauntlet/proto';
import { stepResultFromMessage, type messages as pb } from '@gauntlet/proto/grpc';
import type { RunningServer } from '../../src/server/app.js';
import { postJson, startTestServer } from '../support/server.js';
import { ok, rawClient, unary, wireErrorOf } from './raw-client.js';

let server: RunningServer;
let client: pb.EnvServiceClient;
beforeAll(async () => {
  server = await startTestServer({ maxSessions: 2, grpcMessageLimitBytes: 16 * 1024 });
  client = rawClient(server.grpcUrl);
});
afterAll(async () => {
  client.getChannel().close();
  await server.close();
});

const sessionsDrainTo = (n: number) => vi.waitFor(() => expect(server.service.sessions.size).toBe(n));

describe('unary EnvService calls address sessions by id', () => {
  it('Reset opens a session, Step and State use it, Close frees it', async () => {
    const opened = await ok<pb.ResetReplyOut>(client, 'Reset', { task_name: 'click-test', seed: 3, episode_id: 'g1' });
    expect(opened.session_id).toBeTruthy();
    const first = StepResult.parse(stepResultFromMessage(opened.result!));
    const bid = /\[(\w+)\] button 'Click Me!'/.exec(first.observation.axtree_txt)![1];
    const step = await ok<pb.StepResultOut>(client, 'Step', {
      session_id: opened.session_id,
      action: { action_str: `click('${bid}')` },
    });
    expect(step).toMatchObject({ reward: 1, done: true });
    const state = await ok<pb.StateOut>(client, 'State', { session_id: opened.session_id });
    expect(state).toMatchObject({ episode_id: 'g1', step_count: 1, cum_reward: 1 });
    const again = await ok<pb.ResetReplyOut>(client, 'Reset', {
      session_id: opened.session_id,
      task_name: 'click-test',
      seed: 4,
    });
    expect(again.session_id).toBe(opened.session_id);
    expect(await ok(client, 'Close', { session_id: opened.session_id })).toEqual({ closed: true });
    await sessionsDrainTo(0);
  });

  it('sessions, limits and metrics are shared with HTTP', async () => {
    const viaHttp = await postJson(server.url + '/sessions', {});
    const viaGrpc = await ok<pb.ResetReplyOut>(client, 'Reset', {});
    const refused = await unary(client, 'Reset', {});
    expect(refused.error?.code).toBe(Status.RESOURCE_EXHAUSTED);
    expect(wireErrorOf(refused.error)).toMatchObject({ name: 'CapacityError', code: 'CAPACITY_REACHED' });
    const metrics = await (await fetch(server.url + '/metrics')).text();
    expect(metrics).toMatch(/gauntlet_env_sessions_opened_total\{transport="grpc"\} [1-9]/);
    expect(metrics).toMatch(/gauntlet_env_capacity_rejections_total [1-9]/);
    await ok(client, 'Close', { session_id: viaGrpc.session_id });
    await fetch(`${server.url}/sessions/${viaHttp.body.session_id}`, { method: 'DELETE' });
    await sessionsDrainTo(0);
  });
});

describe('gRPC status for each error class', () => {
  it.each([
    ['an unknown session', 'State', { session_id: 'nope' }, Status.NOT_FOUND, 'SessionNotFoundError'],
    ['a missing session id', 'Step', { action: { action_str: 'noop()' } }, Status.INVALID_ARGUMENT, 'ValidationError'],
    ['a negative seed', 'Reset', { seed: -1 }, Status.INVALID_ARGUMENT, 'ValidationError'],
    ['an unknown task', 'Reset', { task_name: 'nope' }, Status.INVALID_ARGUMENT, 'UnknownTaskError'],
    [
      'a bad screenshot option',
      'Reset',
      { observation: { screenshot: 'bmp' } },
      Status.INVALID_ARGUMENT,
      'ValidationError',
    ],
  ])('%s → %s', async (_what, method, request, code, name) => {
    const { error } = await unary(client, method as 'Reset', request);
    expect(error?.code).toBe(code);
    expect(wireErrorOf(error)?.name).toBe(name);
    await sessionsDrainTo(0);
  });

  it('step before reset → FAILED_PRECONDITION; a killed browser → UNAVAILABLE, then Reset recovers', async () => {
    const { session_id } = await ok<pb.ResetReplyOut>(client, 'Reset', {});
    await ok(client, 'Close', { session_id });
    const fresh = await postJson(server.url + '/sessions', {});
    const early = await unary(client, 'Step', { session_id: fresh.body.session_id, action: { action_str: 'noop(0)' } });
    expect(early.error?.code).toBe(Status.FAILED_PRECONDITION);
    await ok(client, 'Reset', { session_id: fresh.body.session_id, seed: 1 });
    const lost = new Promise((resolve) => server.service.pool.once('browser-lost', resolve));
    process.kill(server.service.pool.browserPid()!, 'SIGKILL');
    await lost;
    const crashed = await unary(client, 'Step', {
      session_id: fresh.body.session_id,
      action: { action_str: 'noop(0)' },
    });
    expect(crashed.error?.code).toBe(Status.UNAVAILABLE);
    expect(wireErrorOf(crashed.error)?.name).toBe('InfraError');
    await ok(client, 'Reset', { session_id: fresh.body.session_id, seed: 1 });
    await ok(client, 'Close', { session_id: fresh.body.session_id });
  });

  it('the call deadline becomes the step timeout: the server stops the step, not just the client', async () => {
    const { session_id } = await ok<pb.ResetReplyOut>(client, 'Reset', { seed: 1 });
    const session = server.service.sessions.find(session_id)!;
    const started = Date.now();
    const { error, reply } = await unary<pb.StepResultOut>(
      client,
      'Step',
      { session_id, action: { action_str: 'noop(5000)' } },
      { deadlineMs: 1_000 },
    );
    // Answered before the call's deadline, as the policy's timeout (before: DEADLINE_EXCEEDED, an infra error).
    expect(error).toBeUndefined();
    expect(reply?.done).toBe(true);
    // The server-side step ended at the deadline, well before noop's 5 s.
    await vi.waitFor(() => expect(session.busy).toBe(false), { timeout: 2_000 });
    expect(Date.now() - started).toBeLessThan(2_000);
    await ok(client, 'Close', { session_id });
  });
});

describe('malformed and oversize messages', () => {
  it.each([70, 600])(
    'a Reset whose options Struct nests %i levels is INVALID_ARGUMENT, and the server carries on',
    async (depth) => {
      // Hand-encoded, since protobufjs refuses to encode this deep: ResetRequest.options (field 5)
      // = Struct{fields: {x: Value{struct_value: Struct{...}}}}.
      const field = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag]), varint(body.length), body]);
      let struct = Buffer.alloc(0);
      for (let i = 0; i < depth; i += 1)
        struct = field(0x0a, Buffer.concat([field(0x0a, Buffer.from('x')), field(0x12, field(0x2a, struct))]));
      const request = field(0x2a, struct);
      const error = await new Promise<{ code: number; details: string }>((resolve) =>
        client.makeUnaryRequest(
          '/gauntlet.env.v1.EnvService/Reset',
          (b: Buffer) => b,
          (b: Buffer) => b,
          request,
          (failure) => resolve(failure!),
        ),
      );
      expect(error.code).toBe(Status.INVALID_ARGUMENT);
      expect(error.details).toMatch(/more than 64 levels deep|Malformed ResetRequest/);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      await sessionsDrainTo(0);
    },
  );

  it('bytes that are not a protobuf are INVALID_ARGUMENT; an oversize message is RESOURCE_EXHAUSTED; others carry on', async () => {
    const bystander = await ok<pb.ResetReplyOut>(client, 'Reset', { seed: 2 });
    const garbage = await new Promise<{ code: number; details: string }>((resolve) =>
      client.makeUnaryRequest(
        '/gauntlet.env.v1.EnvService/Step',
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.from([0x0a, 0xff, 0xff, 0xff]),
        (error) => resolve(error!),
      ),
    );
    expect(garbage.code).toBe(Status.INVALID_ARGUMENT);
    expect(garbage.details).toMatch(/Malformed StepRequest/);
    const huge = await unary(client, 'Step', {
      session_id: bystander.session_id,
      action: { action_str: 'x'.repeat(64 * 1024) },
    });
    expect(huge.error?.code).toBe(Status.RESOURCE_EXHAUSTED);
    const fine = await ok<pb.StepResultOut>(client, 'Step', {
      session_id: bystander.session_id,
      action: { action_str: 'noop(0)' },
    });
    expect(fine.observation?.last_action_error).toBe(false);
    await ok(client, 'Close', { session_id: bystander.session_id });
  });
});

function varint(n: number): Buffer {
  const bytes: number[] = [];
  for (let rest = n; ; rest = Math.floor(rest / 128)) {
    if (rest < 128) {
      bytes.push(rest);
      return Buffer.from(bytes);
    }
    bytes.push((rest % 128) | 128);
  }
}
