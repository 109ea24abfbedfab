import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Metadata, status as Status } from '@grpc/grpc-js';
import type { messages as pb } from '@gauntlet/proto/grpc';
import { rawClient } from '../grpc/raw-client.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { WsTestClient } from '../support/server.js';
import { PeakRss } from './server-memory.js';
import http2 from 'node:http2';
import { gzipSync } from 'node:zlib';
import {
  SCREENSHOT_RESET,
  paddedStateFrame,
  postChunked,
  sendUntilClosed,
  unreadSessionStream,
} from './buffer-attacks.js';

// The attacks of issue 28 against the real `gauntlet-env serve` process, at the default buffer
// limits (only the unread-reply timeout is short, so the test does not wait 30 s). Measured as
// the server's peak RSS: before the limits, 16 unread screenshot replies on /ws raised it by
// 440 MB and 8 on a gRPC stream by 450 MB; with them, 40-95 MB. Building one 1280x720 RGB
// observation alone peaks near 100 MB (nested arrays, then 13 MB of JSON), so the bound allows two.
const GROWTH_BOUND_MB = 200;
const UNREAD_TIMEOUT_MS = 2_000;
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess(['--max-sessions', '4', '--unread-reply-timeout-ms', String(UNREAD_TIMEOUT_MS)]);
});
afterAll(() => server?.stop());

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
}

const sessionsDrain = () =>
  vi.waitFor(async () => expect(await metric('gauntlet_env_sessions_active')).toBe(0), {
    timeout: 20_000,
    interval: 100,
  });

describe('what a WS/gRPC connection buffers is bounded', () => {
  it('ws: requests sent ahead past --max-queued-requests are refused in their turn, the socket goes on', async () => {
    const client = await WsTestClient.connect(server.url);
    expect((await client.request({ type: 'reset', data: { task_name: 'click-test', seed: 1 } })).type).toBe(
      'observation',
    );
    // Twenty states behind a 3 s step: sixteen (the default) may wait, four are refused.
    client.sendRaw(JSON.stringify({ type: 'step', data: { action_str: 'noop(3000)' } }));
    for (let i = 0; i < 20; i += 1) client.sendRaw(JSON.stringify({ type: 'state' }));
    expect((await client.next()).type).toBe('observation');
    const replies = await Promise.all(Array.from({ length: 20 }, () => client.next()));
    expect(replies.slice(0, 16).map((r) => r.type)).toEqual(Array(16).fill('state'));
    for (const refused of replies.slice(16)) {
      expect(refused).toMatchObject({
        type: 'error',
        data: { code: 'PAYLOAD_TOO_LARGE', name: 'PayloadTooLargeError' },
      });
      expect(refused.data.message).toContain('--max-queued-requests 16');
    }
    expect((await client.request({ type: 'state' })).type).toBe('state');
    client.close();
    await sessionsDrain();
  });

  it('gRPC: requests sent ahead past --max-queued-requests are refused in their turn, the stream goes on', async () => {
    const client = rawClient(server.grpcUrl);
    const stream = client.Session(new Metadata());
    const replies: pb.SessionReplyOut[] = [];
    stream.on('data', (reply: pb.SessionReplyOut) => replies.push(reply));
    stream.on('error', () => undefined); // the channel's close at the end cancels the call
    try {
      stream.write({ reset: { task_name: 'click-test', seed: 1 } });
      await vi.waitFor(() => expect(replies).toHaveLength(1), { timeout: 20_000 });
      // Twenty states behind a 3 s step: sixteen (the default) may wait, four are refused.
      stream.write({ step: { action: { action_str: 'noop(3000)' } } });
      for (let i = 0; i < 20; i += 1) stream.write({ state: {} });
      await vi.waitFor(() => expect(replies).toHaveLength(22), { timeout: 20_000 });
      expect(replies.slice(0, 2).map((r) => r.kind)).toEqual(['result', 'result']);
      expect(replies.slice(2, 18).map((r) => r.kind)).toEqual(Array(16).fill('state'));
      for (const refused of replies.slice(18)) {
        expect(refused.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', name: 'PayloadTooLargeError' });
        expect(refused.error?.message).toContain('--max-queued-requests 16');
      }
      stream.write({ state: {} });
      await vi.waitFor(() => expect(replies).toHaveLength(23));
      expect(replies[22]!.kind).toBe('state');
    } finally {
      stream.end();
      client.getChannel().close();
    }
    await sessionsDrain();
  });

  it('ws: deflated 4 MB frames behind a long step are refused, the flood closes the socket (1008), RSS stays flat', async () => {
    const client = await WsTestClient.connect(server.url);
    await client.request({ type: 'reset', data: { task_name: 'click-test', seed: 1 } });
    const peak = new PeakRss(server.child.pid!);
    client.sendRaw(JSON.stringify({ type: 'step', data: { action_str: 'noop(20000)' } }));
    // Frames just under the 4 MB frame limit, a few KB each on the wire, until the server closes
    // the socket. The cap is far above what it takes (twice --max-queued-requests, read by the
    // server): 150 could all sit in the loopback's socket buffers, unread, while a loaded server
    // was still inflating the first few; 5000 (about 20 MB on the wire) cannot.
    const FLOOD = 5000;
    const sent = await sendUntilClosed(client.socket, paddedStateFrame(4 * 1024 * 1024 - 64), FLOOD);
    expect(await client.closed).toEqual({ code: 1008, reason: 'PAYLOAD_TOO_LARGE' });
    expect(sent).toBeLessThan(FLOOD);
    const error = await client.next();
    expect(error).toMatchObject({ type: 'error', data: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(error.data.message).toContain('twice --max-queued-requests');
    await sessionsDrain();
    expect(peak.growthMb()).toBeLessThan(GROWTH_BOUND_MB);
    expect(await metric('gauntlet_env_buffered_bytes')).toBe(0);
  });

  it('ws: a client that never reads its screenshot replies is closed (1008) and RSS stays flat', async () => {
    // Without permessage-deflate each reply is its full 13 MB of JSON (deflate shrinks a blank page's).
    const client = await WsTestClient.connect(server.url, {}, { perMessageDeflate: false });
    await client.request({ type: 'reset', data: { task_name: 'click-test', seed: 1 } });
    const peak = new PeakRss(server.child.pid!);
    client.socket.pause();
    for (let i = 0; i < 16; i += 1) client.sendRaw(JSON.stringify({ type: 'reset', data: SCREENSHOT_RESET }));
    // The server stops answering once the replies go unread, then gives the session up.
    await sessionsDrain();
    expect(peak.growthMb()).toBeLessThan(GROWTH_BOUND_MB);
    client.socket.resume();
    let frame = await client.next();
    let observations = 0;
    for (; frame.type === 'observation'; frame = await client.next()) observations += 1;
    expect(observations).toBeLessThan(16);
    expect(frame).toMatchObject({ type: 'error', data: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(frame.data.message).toContain('unread');
    expect(await client.closed).toEqual({ code: 1008, reason: 'PAYLOAD_TOO_LARGE' });
    expect(await metric('gauntlet_env_buffered_bytes')).toBe(0);
  });

  it('gRPC: a Session stream that never reads its screenshot replies ends RESOURCE_EXHAUSTED and RSS stays flat', async () => {
    const call = unreadSessionStream(server.grpcUrl);
    try {
      await call.opened;
      const peak = new PeakRss(server.child.pid!);
      for (let i = 0; i < 16; i += 1) call.send({ reset: SCREENSHOT_RESET });
      await sessionsDrain();
      expect(peak.growthMb()).toBeLessThan(GROWTH_BOUND_MB);
      call.read();
      const { trailers, bytesRead } = await call.ended;
      // Few of the sixteen 2.7 MB replies were built before the stream ended.
      expect(bytesRead).toBeLessThan(8 * 2_700_000);
      expect(Number(trailers['grpc-status'])).toBe(Status.RESOURCE_EXHAUSTED);
      expect(decodeURIComponent(String(trailers['grpc-message']))).toContain('unread');
      const typed = JSON.parse(Buffer.from(String(trailers['gauntlet-error-bin']), 'base64').toString());
      expect(typed).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', name: 'PayloadTooLargeError' });
      expect(await metric('gauntlet_env_buffered_bytes')).toBe(0);
    } finally {
      call.close();
    }
  });

  it('gRPC: a failed stream whose client still does not read is reset, so its unsent replies go too', async () => {
    const call = unreadSessionStream(server.grpcUrl);
    try {
      await call.opened;
      for (let i = 0; i < 16; i += 1) call.send({ reset: SCREENSHOT_RESET });
      await sessionsDrain();
      // Another --unread-reply-timeout-ms after the failure, without a byte read.
      expect(await call.closed).toBe(http2.constants.NGHTTP2_CANCEL);
      expect(await metric('gauntlet_env_buffered_bytes')).toBe(0);
    } finally {
      call.close();
    }
  });

  it('ws: a frame that inflates past --frame-limit closes the socket (1009), a few KB on the wire', async () => {
    const client = await WsTestClient.connect(server.url);
    const peak = new PeakRss(server.child.pid!);
    client.sendRaw(paddedStateFrame(64 * 1024 * 1024));
    expect((await client.closed).code).toBe(1009);
    await sessionsDrain();
    expect(peak.growthMb()).toBeLessThan(GROWTH_BOUND_MB);
  });

  it('http: a chunked body is cut at --body-limit (413, typed) and a gzip body is never inflated', async () => {
    const peak = new PeakRss(server.child.pid!);
    const chunked = await postChunked(`${server.url}/reset`, 64);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', name: 'PayloadTooLargeError' });
    const bomb = await fetch(`${server.url}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)),
    });
    expect(bomb.status).toBe(422);
    expect((await bomb.json()).error.code).toBe('INVALID_JSON');
    expect(peak.growthMb()).toBeLessThan(GROWTH_BOUND_MB);
  });
});
