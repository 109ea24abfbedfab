import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { lookup, LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressProxy, lookupAvoidingLoopback } from '../../src/browser/egress-proxy.js';

/**
 * The egress proxy on its own, spoken to as Chromium speaks to it: absolute-URL requests for
 * http, CONNECT for tunnels. One allowed server and one that must never hear anything.
 */
let allowed: Server;
let other: Server;
let otherHits = 0;
const proxy = new EgressProxy();
let proxyUrl: URL;
let release: () => void;

const portOf = (server: Server) => (server.address() as AddressInfo).port;

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  allowed = await listen(
    createServer((req, res) =>
      req.url === '/away' ? res.writeHead(302, { location: 'http://127.0.0.1:1/' }).end() : res.end('allowed body'),
    ),
  );
  other = await listen(createServer((_req, res) => res.end('secret')));
  other.on('connection', () => (otherHits += 1));
  const registered = await proxy.register({
    policy: { extra: [`http://127.0.0.1:${portOf(allowed)}`] },
    registeredSockets: () => new Set(),
  });
  proxyUrl = new URL(registered.server);
  release = registered.release;
});
afterAll(async () => {
  await proxy.close();
  allowed?.close();
  other?.close();
});

/** A request through the proxy: status and body, or 'network error' when the proxy dropped it. */
function viaProxy(url: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve) => {
    const req = request({ host: proxyUrl.hostname, port: proxyUrl.port, path: url, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve(`${res.statusCode} ${body}`.trim()));
    });
    req.on('error', () => resolve('network error'));
    req.end();
  });
}

/** The proxy's answer to CONNECT host:port (its status line). */
function tunnel(authority: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(proxyUrl.port), proxyUrl.hostname, () =>
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
    );
    socket.once('data', (data) => {
      resolve(data.toString().split('\r\n')[0] ?? '');
      socket.destroy();
    });
    socket.on('error', () => resolve('network error'));
  });
}

describe('EgressProxy', () => {
  it('forwards requests to an allowed origin and hands redirects back unfollowed', async () => {
    expect(await viaProxy(`http://127.0.0.1:${portOf(allowed)}/`)).toBe('200 allowed body');
    expect(await viaProxy(`http://127.0.0.1:${portOf(allowed)}/away`)).toBe('302');
  });

  it('never contacts a refused origin: a navigation gets 204 (the frame stays), anything else a dropped connection', async () => {
    const target = `http://127.0.0.1:${portOf(other)}/`;
    expect(await viaProxy(target, { 'sec-fetch-mode': 'navigate' })).toBe('204');
    expect(await viaProxy(target)).toBe('network error');
    expect(await viaProxy('http://tasks.gauntlet.test/')).toBe('network error');
    expect(await tunnel(`127.0.0.1:${portOf(other)}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(await tunnel(`[::1]:${portOf(other)}`)).toBe('HTTP/1.1 403 Forbidden');
    expect(otherHits).toBe(0);
  });

  it('tunnels to an allowed host and port', async () => {
    expect(await tunnel(`127.0.0.1:${portOf(allowed)}`)).toBe('HTTP/1.1 200 Connection Established');
  });

  it('stops answering for a released context', async () => {
    release();
    expect(await viaProxy(`http://127.0.0.1:${portOf(allowed)}/`)).toBe('network error');
  });
});

describe('lookupAvoidingLoopback', () => {
  /** A resolver that answers `addresses` for every name. */
  const answering = (addresses: LookupAddress[]) =>
    ((_name: string, _options: unknown, callback: (e: null, a: LookupAddress[]) => void) =>
      callback(null, addresses)) as unknown as typeof lookup;

  function resolveWith(addresses: LookupAddress[]): Promise<string> {
    return new Promise((resolve) =>
      lookupAvoidingLoopback(answering(addresses))('name.example', {}, (error, address) =>
        resolve(error ? `refused: ${error.message}` : String(address)),
      ),
    );
  }

  it('refuses a name that resolves only to loopback and skips loopback answers otherwise', async () => {
    expect(await resolveWith([{ address: '127.0.0.1', family: 4 }])).toBe('refused: name.example resolves to loopback');
    expect(
      await resolveWith([
        { address: '::1', family: 6 },
        { address: '0.0.0.0', family: 4 },
      ]),
    ).toMatch(/^refused/);
    expect(
      await resolveWith([
        { address: '127.0.0.1', family: 4 },
        { address: '93.184.216.34', family: 4 },
      ]),
    ).toBe('93.184.216.34');
  });
});
