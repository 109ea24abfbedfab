import WebSocket from 'ws';
import { DEFAULTS, type ServerConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server/app.js';

/** A real env server on an ephemeral loopback port with test-friendly limits. */
export async function startTestServer(
  overrides: Partial<ServerConfig> = {},
  options = { waitForBrowser: true },
): Promise<RunningServer> {
  // Port 0 for HTTP and gRPC: test files run in parallel, each server on free ports.
  const config: ServerConfig = {
    ...structuredClone(DEFAULTS),
    host: '127.0.0.1',
    port: 0,
    grpcPort: 0,
    warmContexts: 1,
    maxSessions: 4,
    ...overrides,
  };
  return startServer(config, options);
}

/** A WebSocket client that reads frames in order (one reply per request, like OpenEnv's client). */
export class WsTestClient {
  private readonly inbox: unknown[] = [];
  private readonly waiters: ((frame: unknown) => void)[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      const waiter = this.waiters.shift();
      if (waiter) waiter(frame);
      else this.inbox.push(frame);
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static async connect(
    baseUrl: string,
    headers: Record<string, string> = {},
    options: { perMessageDeflate?: boolean } = {},
  ): Promise<WsTestClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers, ...options });
    const client = new WsTestClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  /** The next frame from the server. */
  next(): Promise<any> {
    const queued = this.inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async request(frame: unknown): Promise<any> {
    this.sendRaw(JSON.stringify(frame));
    return this.next();
  }

  sendRaw(text: string | Buffer): void {
    this.socket.send(text);
  }

  close(): void {
    this.socket.close();
  }
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Non-JSON bodies are returned as text for the assertion to show.
  }
  return { status: response.status, body: parsed, headers: response.headers };
}
