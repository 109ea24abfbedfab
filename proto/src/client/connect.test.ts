import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { createEnvClient } from './connect.js';

describe('createEnvClient picks the transport from the URL', () => {
  it.each([
    ['ws://127.0.0.1:8000', {}, 'ws', 'ws://127.0.0.1:8000/ws'],
    ['wss://env.example/ws', {}, 'ws', 'wss://env.example/ws'],
    ['http://127.0.0.1:8000/', {}, 'http', 'http://127.0.0.1:8000'],
    ['https://owner-space.hf.space', { transport: 'ws' as const }, 'ws', 'wss://owner-space.hf.space/ws'],
    ['grpc://127.0.0.1:50051', {}, 'grpc', 'grpc://127.0.0.1:50051'],
    ['grpcs://env.example:443', {}, 'grpc', 'grpcs://env.example:443'],
  ])('%s %j → %s at %s', (url, options, transport, target) => {
    const client = createEnvClient(url, options);
    expect(client.transport).toBe(transport);
    expect(client.target).toBe(target);
    expect(client.sessionId).toBeUndefined();
  });

  it('explains what is wrong with a URL it cannot use', () => {
    expect(() => createEnvClient('localhost:8000')).toThrow(ValidationError);
    expect(() => createEnvClient('http://127.0.0.1:8000', { transport: 'grpc' })).toThrow(/grpc:\/\/host:50051/);
    expect(() => createEnvClient('ftp://x')).toThrow(/Unsupported scheme/);
  });

  it('validates requests before anything is sent', async () => {
    const client = createEnvClient('http://127.0.0.1:1');
    await expect(client.reset({ seed: -1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(client.step({ action_str: 'noop()', bogus: 1 } as never)).rejects.toThrow(/body.action/);
  });
});
