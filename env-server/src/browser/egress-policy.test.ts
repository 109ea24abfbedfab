import { describe, expect, it } from 'vitest';
import { egressDecision, type EgressTarget } from './egress-policy.js';
import { isLoopbackHost } from './loopback.js';

const request = (url: string): EgressTarget => ({ kind: 'request', url: new URL(url) });
const tunnel = (host: string, port: number): EgressTarget => ({ kind: 'tunnel', host, port });

describe('egressDecision', () => {
  it('lets out only origins the operator named, by request and by tunnel', () => {
    const policy = { extra: ['http://127.0.0.1:3000', 'https://app.example'] };
    expect(egressDecision(request('http://127.0.0.1:3000/x?y'), policy)).toEqual({
      allowed: true,
      checkAddress: false,
    });
    expect(egressDecision(tunnel('app.example', 443), policy)).toEqual({ allowed: true, checkAddress: false });
    // The ws twin of an allowed http origin is tunnelled too.
    expect(egressDecision(tunnel('127.0.0.1', 3000), policy).allowed).toBe(true);
    expect(egressDecision(request('http://127.0.0.1:3001/'), policy).allowed).toBe(false);
    expect(egressDecision(tunnel('127.0.0.1', 6379), policy).allowed).toBe(false);
    expect(egressDecision(request('http://app.example/'), policy).allowed).toBe(false);
  });

  it('never sends the task origin out, whatever is allowed', () => {
    const open = { extra: ['*', 'http://tasks.gauntlet.test'] };
    expect(egressDecision(request('http://tasks.gauntlet.test/x'), open).allowed).toBe(false);
    expect(egressDecision(request('http://user@tasks.gauntlet.test/'), open).allowed).toBe(false);
    expect(egressDecision(tunnel('tasks.gauntlet.test', 443), open).allowed).toBe(false);
  });

  it('reads * as any host but loopback, and asks for the resolved address to be checked', () => {
    const open = { extra: ['*'] };
    expect(egressDecision(request('http://example.com/'), open)).toEqual({ allowed: true, checkAddress: true });
    for (const url of ['http://127.0.0.1:8080/metrics', 'http://localhost:1/', 'http://[::1]:1/', 'http://0x7f.1/'])
      expect(egressDecision(request(url), open).allowed, url).toBe(false);
    expect(egressDecision(tunnel('::1', 443), open).allowed).toBe(false);
    expect(egressDecision(tunnel('api.localhost', 443), open).allowed).toBe(false);
  });

  it('lets a context reach a server of ours registered for it', () => {
    const ours = new Set(['ws://127.0.0.1:41234']);
    expect(egressDecision(tunnel('127.0.0.1', 41234), { extra: [] }, ours).allowed).toBe(true);
    expect(egressDecision(tunnel('127.0.0.1', 41235), { extra: [] }, ours).allowed).toBe(false);
  });

  it('refuses what is not http or not an address', () => {
    expect(egressDecision(request('https://app.example/'), { extra: ['*'] }).allowed).toBe(false);
    expect(egressDecision(tunnel('a b', 1), { extra: ['*'] }).allowed).toBe(false);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'a.localhost',
    'localhost.',
    '127.0.0.1',
    '127.1.2.3',
    '0.0.0.0',
    '[::1]',
    '[::]',
    '[::ffff:7f00:1]',
    '::ffff:127.0.0.1',
  ])('%s is this machine', (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(['example.com', '10.0.0.1', '128.0.0.1', '[2001:db8::1]', 'localhost.example'])('%s is not', (host) =>
    expect(isLoopbackHost(host)).toBe(false),
  );
});
