import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Metadata, status as Status, type ClientDuplexStream, type ServiceError } from '@grpc/grpc-js';
import { FactoryError } from '@gauntlet/proto';
import { createEnvClient } from '@gauntlet/proto/client';
import { envMessageCodec, type messages as pb } from '@gauntlet/proto/grpc';
import type { RunningServer } from '../../src/server/app.js';
import { startTestServer } from '../support/server.js';
import { rawClient, unary } from './raw-client.js';

let server: RunningServer;
let client: pb.EnvServiceClient;
beforeAll(async () => {
  server = await startTestServer({ maxSessions: 2 });
  client = rawClient(server.grpcUrl);
});
afterAll(async () => {
  client.getChannel().close();
  await server.close();
});

const sessionsDrainTo = (n: number) => vi.waitFor(() => expect(server.service.sessions.size).toBe(n));

/** A Session stream read in order, with its id and final status. */
function openStream(stream: ClientDuplexStream<any, pb.SessionReplyOut> = client.Session(new Metadata())) {
  const inbox: pb.SessionReplyOut[] = [];
  const waiters: ((reply: pb.SessionReplyOut) => void)[] = [];
  stream.on('data', (reply: pb.SessionReplyOut) => (waiters.shift() ?? ((r) => inbox.push(r)))(reply));
  const status = new Promise<{ code: number; details: string }>((resolve) => {
    stream.on('status', (s: { code: number; details: string }) => resolve(s));
    stream.on('error', (e: ServiceError) => resolve(e));
  });
  const sessionId = new Promise<string>((resolve) =>
    stream.once('metadata', (md: Metadata) => resolve(String(md.get('x-session-id')[0] ?? ''))),
  );
  const next = () =>
    inbox.length
      ? Promise.resolve(inbox.shift()!)
      : new Promise<pb.SessionReplyOut>((resolve) => waiters.push(resolve));
  return { stream, status, sessionId, next, request: (message: unknown) => (stream.write(message), next()) };
}

describe('the Session stream is one session', () => {
  it('sends x-session-id once open, answers in order, and a close request ends it with OK', async () => {
    const s = openStream();
    const id = await s.sessionId;
    expect(server.service.sessions.find(id)).toBeDefined();
    s.stream.write({ reset: { task_name: 'click-test', seed: 1 } });
    s.stream.write({ step: { action: { action_str: 'noop(0)' } } });
    s.stream.write({ state: {} });
    expect((await s.next()).kind).toBe('result');
    expect((await s.next()).result?.observation?.url).toContain('click-test');
    expect((await s.next()).state?.step_count).toBe(1);
    s.stream.write({ close: {} });
    expect((await s.status).code).toBe(Status.OK);
    await sessionsDrainTo(0);
  });

  it('per-request errors are replies and the stream goes on', async () => {
    const s = openStream();
    expect((await s.request({ step: { action: { action_str: 'noop(0)' } } })).error).toMatchObject({
      name: 'EpisodeStateError',
      code: 'EXECUTION_ERROR',
    });
    expect((await s.request({ reset: { seed: -3 } })).error).toMatchObject({
      name: 'ValidationError',
      code: 'VALIDATION_ERROR',
    });
    expect((await s.request({ state: { session_id: 'someone-else' } })).error?.message).toMatch(
      /not used on the Session stream/,
    );
    expect((await s.request({})).error?.message).toMatch(/must set one of reset, step, state or close/);
    expect((await s.request({ state: {} })).kind).toBe('state');
    s.stream.end();
    expect((await s.status).code).toBe(Status.OK);
    await sessionsDrainTo(0);
  });

  it('a message that is not a protobuf gets an INVALID_ARGUMENT reply; the stream and the session survive', async () => {
    const request = envMessageCodec<object>('gauntlet.env.v1.SessionRequest');
    const reply = envMessageCodec<pb.SessionReplyOut>('gauntlet.env.v1.SessionReply');
    const raw = client.makeBidiStreamRequest(
      '/gauntlet.env.v1.EnvService/Session',
      (b: Buffer) => b,
      reply.deserialize,
      new Metadata(),
    );
    const s = openStream(raw);
    await s.sessionId;
    expect((await s.request(Buffer.from([0x0a, 0xff, 0xff]))).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/Malformed SessionRequest/),
    });
    expect((await s.request(request.serialize({ state: {} }))).kind).toBe('state');
    raw.end();
    await s.status;
    await sessionsDrainTo(0);
  });

  it('a cancelled stream frees its session; capacity is checked before the id is sent', async () => {
    const a = openStream();
    const b = openStream();
    await Promise.all([a.sessionId, b.sessionId]);
    const refused = openStream();
    expect(await refused.status).toMatchObject({ code: Status.RESOURCE_EXHAUSTED });
    a.stream.cancel();
    await sessionsDrainTo(1);
    b.stream.end();
    await sessionsDrainTo(0);
  });
});

describe('a browser that cannot start', () => {
  it('is FACTORY_ERROR (UNAVAILABLE) for the stream and for unary Reset, and the SDK reports FactoryError', async () => {
    const broken = await startTestServer({ chromiumPath: '/bin/false' }, { waitForBrowser: false });
    const brokenClient = rawClient(broken.grpcUrl);
    try {
      const s = openStream(brokenClient.Session(new Metadata()));
      const status = (await s.status) as ServiceError;
      expect(status.code).toBe(Status.UNAVAILABLE);
      expect(JSON.parse(status.metadata.get('gauntlet-error-bin')[0]!.toString())).toMatchObject({
        name: 'FactoryError',
        code: 'FACTORY_ERROR',
      });
      const viaUnary = await unary(brokenClient, 'Reset', {});
      expect(viaUnary.error?.code).toBe(Status.UNAVAILABLE);
      const sdk = createEnvClient(broken.grpcUrl, { retry: { attempts: 1 } });
      await expect(sdk.reset({})).rejects.toBeInstanceOf(FactoryError);
      expect(broken.service.sessions.size).toBe(0);
    } finally {
      brokenClient.getChannel().close();
      await broken.close();
    }
  });
});
