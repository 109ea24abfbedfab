import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { BrowserPool, type ContextLease } from '../../src/browser/pool.js';
import { allowSocketOrigin } from '../../src/browser/socket-routes.js';
import { TASK_ORIGIN } from '../../src/browser/site.js';

/**
 * What a script on a page of the session can reach, on the browser the pool launches with our
 * flags and routes. The scripts stand for a hostile page (the agent cannot run script itself).
 */
const PAGE = `${TASK_ORIGIN}/escape.html`;
const site = new Map([
  ['/escape.html', { contentType: 'text/html', body: '<!doctype html><title>escape</title><p>x</p>' }],
]);
let allowedSockets: WebSocketServer;
let otherSockets: WebSocketServer;
let pool: BrowserPool;
let lease: ContextLease | undefined;

const portOf = (server: WebSocketServer) => (server.address() as AddressInfo).port;

function listen(): Promise<WebSocketServer> {
  return new Promise((resolve) => {
    const server: WebSocketServer = new WebSocketServer({ host: '127.0.0.1', port: 0 }, () => resolve(server));
  });
}

beforeAll(async () => {
  [allowedSockets, otherSockets] = await Promise.all([listen(), listen()]);
  pool = new BrowserPool({
    headless: true,
    display: { width: 800, height: 600, deviceScaleFactor: 1 },
    warm: 0,
    pageTimeoutMs: 10_000,
    site,
    origins: { extra: [`http://127.0.0.1:${portOf(allowedSockets)}`] },
  });
  await pool.start();
});
afterAll(async () => {
  await pool?.close();
  allowedSockets?.close();
  otherSockets?.close();
});
afterEach(async () => {
  if (lease) await pool.release(lease);
  lease = undefined;
});

/** A fresh session context on the task page, allowed to reach loopback like the Gauntlet's. */
async function openTaskPage(): Promise<ContextLease> {
  lease = await pool.acquire();
  await lease.context.grantPermissions(['local-network-access'], { origin: TASK_ORIGIN });
  await lease.page.goto(PAGE);
  return lease;
}

/** How a page's WebSocket to `url` ended: 'open' or 'closed <code>'. */
function openSocket(lease: ContextLease, url: string): Promise<string> {
  return lease.page.evaluate(
    (target) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(target);
        socket.onopen = () => {
          resolve('open');
          socket.close();
        };
        socket.onclose = (event) => resolve(`closed ${event.code}`);
      }),
    url,
  );
}

describe('WebSockets from pages', () => {
  it('reach an origin the operator allowed', async () => {
    const page = await openTaskPage();
    expect(await openSocket(page, `ws://127.0.0.1:${portOf(allowedSockets)}/`)).toBe('open');
  });

  it('are closed before connecting to any other host or port', async () => {
    const page = await openTaskPage();
    let connections = 0;
    otherSockets.on('connection', () => (connections += 1));
    expect(await openSocket(page, `ws://127.0.0.1:${portOf(otherSockets)}/`)).toBe('closed 1008');
    expect(await openSocket(page, `ws://localhost:${portOf(otherSockets)}/`)).toBe('closed 1008');
    expect(connections).toBe(0);
  });

  it('reach a server a task registered for its own context only', async () => {
    const page = await openTaskPage();
    allowSocketOrigin(page.context, `ws://127.0.0.1:${portOf(otherSockets)}/gauntlet/code`);
    expect(await openSocket(page, `ws://127.0.0.1:${portOf(otherSockets)}/`)).toBe('open');
    await pool.release(page);
    const other = await openTaskPage();
    expect(await openSocket(other, `ws://127.0.0.1:${portOf(otherSockets)}/`)).toBe('closed 1008');
  });
});

describe('WebRTC from pages', () => {
  it('sends no UDP: STUN to a listening port gets nothing', async () => {
    const page = await openTaskPage();
    const stun: Socket = createSocket('udp4');
    let datagrams = 0;
    stun.on('message', () => (datagrams += 1));
    await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve));
    try {
      const gathered = await page.page.evaluate(
        async (port) => {
          const peer = new RTCPeerConnection({ iceServers: [{ urls: `stun:127.0.0.1:${port}` }] });
          peer.createDataChannel('probe');
          await peer.setLocalDescription(await peer.createOffer());
          // Gathering ends at once when UDP is off; with UDP, a silent STUN server holds it for seconds.
          await new Promise<void>((resolve) => {
            if (peer.iceGatheringState === 'complete') return resolve();
            peer.onicegatheringstatechange = () => peer.iceGatheringState === 'complete' && resolve();
            setTimeout(resolve, 5_000);
          });
          const state = peer.iceGatheringState;
          peer.close();
          return state;
        },
        (stun.address() as AddressInfo).port,
      );
      expect(gathered).toBe('complete');
      expect(datagrams).toBe(0);
    } finally {
      stun.close();
    }
  });
});

describe('the task origin', () => {
  it('is answered from memory even when the URL carries user info, never looked up', async () => {
    lease = await pool.acquire();
    // goto() refuses such URLs; a page can still link to one, so the route must match by origin.
    await lease.page.goto(`http://127.0.0.1%2F@${new URL(TASK_ORIGIN).host}/escape.html`);
    expect(await lease.page.title()).toBe('escape');
  });
});
