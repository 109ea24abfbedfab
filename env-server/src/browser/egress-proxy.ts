import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { egressDecision, type EgressTarget } from './egress-policy.js';
import { isLoopbackAddress } from './loopback.js';
import type { OriginPolicy } from './origin-policy.js';

/** What the proxy knows of one browser context: the policy its traffic answers to. */
export interface EgressClient {
  policy: OriginPolicy;
  /** Origins of our own servers the context's pages may reach (socket-routes.ts). */
  registeredSockets(): ReadonlySet<string>;
}

/** Headers that describe one connection, not the request: never forwarded. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'upgrade'];
const TUNNEL_REFUSED = 'HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';

/**
 * The browser's only way out: each context gets its own listener of this loopback proxy (Playwright
 * sets `<-loopback>`, so loopback goes through it too), which applies that context's origin
 * policy to each connection. Request routes see only the first request of a navigation;
 * redirects, a Worker's WebSocket and WebRTC's TURN over TCP reach the network without them, but
 * not without the proxy. WebRTC sends no UDP (CHROMIUM_FLAGS), so nothing bypasses it.
 *
 * A listener per context rather than credentials: Chromium answers a proxy's 407 for page loads
 * but not for a WebSocket's tunnel, and the port alone tells the contexts apart.
 */
export class EgressProxy {
  private readonly listeners = new Set<Server>();
  private readonly open = new Set<Duplex>();
  private closed = false;

  /** A proxy for one context (`server` goes into its proxy settings); `release` stops it. */
  async register(client: EgressClient): Promise<{ server: string; release: () => void }> {
    if (this.closed) throw new Error('egress proxy is closed');
    const listener = createServer((request, response) => this.onRequest(request, response, client));
    listener.on('connect', (request, socket, head) => this.onConnect(request, socket, head, client));
    // Chromium tunnels WebSockets with CONNECT; a plain upgrade through the proxy is not ours to carry.
    listener.on('upgrade', (_request, socket) => socket.destroy());
    listener.on('connection', (socket) => this.track(socket));
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(0, '127.0.0.1', () => resolve());
    });
    this.listeners.add(listener);
    const { port } = listener.address() as { port: number };
    return {
      server: `http://127.0.0.1:${port}`,
      release: () => {
        this.listeners.delete(listener);
        listener.close();
        listener.closeAllConnections();
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const socket of this.open) socket.destroy();
    await Promise.all([...this.listeners].map((listener) => new Promise((resolve) => listener.close(resolve))));
    this.listeners.clear();
  }

  private onRequest(request: IncomingMessage, response: ServerResponse, client: EgressClient): void {
    const url = URL.canParse(request.url ?? '') ? new URL(request.url!) : undefined;
    const decision = url ? this.decide({ kind: 'request', url }, client) : undefined;
    if (!url || !decision?.allowed) {
      // 204 cancels a navigation and leaves the frame on its document; any other request fails.
      if (request.headers['sec-fetch-mode'] === 'navigate') return void response.writeHead(204).end();
      return void request.socket.destroy();
    }
    const upstream = httpRequest(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || 80,
        method: request.method,
        path: url.pathname + url.search,
        headers: withoutHopByHop(request.headers),
        lookup: decision.checkAddress ? notLoopback : undefined,
      },
      (reply) => {
        response.writeHead(reply.statusCode ?? 502, withoutHopByHop(reply.headers));
        reply.pipe(response);
      },
    );
    upstream.on('error', () => (response.headersSent ? response.destroy() : response.writeHead(502).end()));
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
  }

  private onConnect(request: IncomingMessage, socket: Duplex, head: Buffer, client: EgressClient): void {
    const target = URL.canParse(`http://${request.url}`) ? new URL(`http://${request.url}`) : undefined;
    const port = Number(target?.port || 443);
    const host = target?.hostname.replace(/^\[|\]$/g, '');
    const decision = host ? this.decide({ kind: 'tunnel', host, port }, client) : undefined;
    if (!target || !decision?.allowed) return void socket.end(TUNNEL_REFUSED);
    const upstream = connect({
      host,
      port,
      lookup: decision.checkAddress ? notLoopback : undefined,
    });
    this.track(upstream);
    upstream.once('connect', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => (upstream.readyState === 'opening' ? socket.end(TUNNEL_REFUSED) : socket.destroy()));
    socket.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  }

  private decide(target: EgressTarget, client: EgressClient) {
    return egressDecision(target, client.policy, client.registeredSockets());
  }

  private track(socket: Duplex): void {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
  }
}

function withoutHopByHop<T extends Record<string, unknown>>(headers: T): T {
  const copy = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}

/**
 * A lookup for net/http that drops loopback answers and fails when none is left: a public name
 * allowed only by `*` may not lead to this machine. `resolve` is dns.lookup (a test passes its own).
 */
export function lookupAvoidingLoopback(resolve: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = addresses.filter((entry) => !isLoopbackAddress(entry.address));
      if (usable.length === 0)
        return callback(Object.assign(new Error(`${hostname} resolves to loopback`), { code: 'EACCES' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

const notLoopback = lookupAvoidingLoopback();
