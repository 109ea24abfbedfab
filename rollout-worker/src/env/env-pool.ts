import { ValidationError } from '@gauntlet/proto';
import { createEnvClient, type EnvClient } from '@gauntlet/proto/client';
import type { WorkerMetrics } from '../metrics/metrics.js';
import { probeHealth, type HealthProbe } from './health.js';
import { EnvLease, type EnvServer, type Handover, type LeasablePool } from './env-lease.js';
import { SessionQueue } from './session-queue.js';

export interface EnvPoolOptions {
  /** Bearer token for every server. */
  token?: string | undefined;
  /** Deadline of each env call in ms (the episode's own deadline also applies). */
  callTimeoutMs?: number;
  /** How often every server is health-checked (default 5 000 ms). */
  probeIntervalMs?: number;
  probeTimeoutMs?: number;
  /** Idle sessions kept for reuse across episodes (default 8); reset reuses a session's page. */
  maxIdle?: number;
  /**
   * How long an idle session is kept for the next episode (default 500 ms): past it the session
   * closes, so that its slot on a shared server goes to whichever worker waits for one.
   */
  idleMs?: number;
  probe?: HealthProbe;
  /** Makes the client for one server (default: the SDK's createEnvClient). */
  connect?: (url: string) => EnvClient;
  metrics?: WorkerMetrics | undefined;
}

/** What an episode's lease just met, with this worker's sessions held and episodes waiting after it. */
export interface Pressure {
  event: 'wait' | 'acquired';
  /** The episode waited for capacity (always, for a wait). */
  waited: boolean;
  held: number;
  waiting: number;
}

/**
 * The env servers a worker plays on: health-checked, taken in round robin, with sessions kept
 * open between episodes. Each episode gets an EnvLease, which moves on to the next server when
 * one is full (CapacityError) or unreachable, and waits in this pool's line while all are full.
 */
export class EnvPool implements LeasablePool {
  readonly servers: EnvServer[];
  private cursor = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly line = new SessionQueue<Handover>();
  private readonly expiry = new Map<EnvClient, NodeJS.Timeout>();
  private readonly listeners = new Set<(pressure: Pressure) => void>();
  private readonly options: Required<
    Pick<EnvPoolOptions, 'probeIntervalMs' | 'probeTimeoutMs' | 'maxIdle' | 'idleMs' | 'probe' | 'connect'>
  > &
    EnvPoolOptions;

  constructor(urls: readonly string[], options: EnvPoolOptions = {}) {
    if (urls.length === 0)
      throw new ValidationError('no env server: give at least one URL (e.g. grpc://127.0.0.1:50051)');
    for (const url of urls) validateUrl(url);
    this.servers = [...new Set(urls)].map((url) => ({ url, healthy: true, leased: 0, idle: [] }));
    this.options = {
      probeIntervalMs: 5_000,
      probeTimeoutMs: 2_000,
      maxIdle: 8,
      idleMs: 500,
      probe: probeHealth,
      // One try per server: the lease moves on to the next server instead of waiting on this one.
      connect: (url) =>
        createEnvClient(url, {
          token: options.token,
          callTimeoutMs: options.callTimeoutMs ?? 60_000,
          retry: { attempts: 1 },
        }),
      ...options,
    };
  }

  /** Probes every server once, then keeps probing in the background. */
  async start(): Promise<void> {
    await this.probeAll();
    this.timer = setInterval(() => void this.probeAll(), this.options.probeIntervalMs);
    this.timer.unref();
  }

  async probeAll(): Promise<void> {
    await Promise.all(
      this.servers.map(async (server) => {
        server.healthy = await this.options.probe(server.url, this.options.probeTimeoutMs);
      }),
    );
    this.options.metrics?.envServersHealthy.set(this.servers.filter((s) => s.healthy).length);
  }

  /** A lease for one episode. */
  lease(): EnvLease {
    return new EnvLease(this);
  }

  /** Servers to try for the next reset: healthy ones from the round-robin cursor on; all of them if none is healthy. */
  candidates(): EnvServer[] {
    const start = this.cursor++ % this.servers.length;
    const order = [...this.servers.slice(start), ...this.servers.slice(0, start)];
    const healthy = order.filter((s) => s.healthy);
    return healthy.length > 0 ? healthy : order;
  }

  /** An open session on `server` if one is idle, else a new client. */
  take(server: EnvServer): EnvClient {
    server.leased += 1;
    const idle = server.idle.pop();
    if (!idle) return this.options.connect(server.url);
    clearTimeout(this.expiry.get(idle));
    this.expiry.delete(idle);
    return idle;
  }

  /**
   * Back from an episode: a clean session goes to the oldest episode waiting for one, else is
   * kept for the next (until idleMs); a broken one is closed, which frees its slot for a waiter.
   */
  giveBack(server: EnvServer, client: EnvClient, reusable: boolean): void {
    if (reusable && this.line.handOver({ server, client })) return;
    server.leased -= 1;
    const idle = this.servers.reduce((n, s) => n + s.idle.length, 0);
    if (reusable && idle < this.options.maxIdle) this.keepIdle(server, client);
    else void closeQuietly(client).then(() => this.line.wake());
  }

  discard(server: EnvServer, client: EnvClient): void {
    server.leased -= 1;
    void closeQuietly(client);
  }

  /** Episodes of this worker waiting for a session now. */
  get waiting(): number {
    return this.line.length;
  }

  async waitForSession(pauseMs: number, signal?: AbortSignal): Promise<Handover | undefined> {
    this.options.metrics?.envWaiting.inc();
    try {
      const handover = this.line.wait(pauseMs, signal);
      this.report({ event: 'wait', waited: true });
      return await handover;
    } finally {
      this.options.metrics?.envWaiting.dec();
    }
  }

  acquired(waitedMs: number | undefined): void {
    if (waitedMs !== undefined) {
      this.options.metrics?.envWaits.inc();
      this.options.metrics?.envWaitSeconds.observe(waitedMs / 1000);
    }
    this.report({ event: 'acquired', waited: waitedMs !== undefined });
  }

  /** Sessions held by this worker's episodes now. */
  get held(): number {
    return this.servers.reduce((n, s) => n + s.leased, 0);
  }

  /** Calls `listener` whenever an episode starts waiting for a session, or gets one. */
  onPressure(listener: (pressure: Pressure) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private report(what: Pick<Pressure, 'event' | 'waited'>): void {
    const pressure = { ...what, held: this.held, waiting: this.line.length };
    for (const listener of this.listeners) listener(pressure);
  }

  markDown(server: EnvServer, reason: 'unreachable' | 'capacity'): void {
    if (reason === 'unreachable') server.healthy = false;
    this.options.metrics?.envFailovers.inc({ reason });
    this.options.metrics?.envServersHealthy.set(this.servers.filter((s) => s.healthy).length);
  }

  /** Stops probing and closes the idle sessions (leased ones close when their episodes end). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const timer of this.expiry.values()) clearTimeout(timer);
    this.expiry.clear();
    const idle = this.servers.flatMap((s) => s.idle.splice(0));
    await Promise.all(idle.map(closeQuietly));
  }

  private keepIdle(server: EnvServer, client: EnvClient): void {
    server.idle.push(client);
    const timer = setTimeout(() => {
      this.expiry.delete(client);
      const at = server.idle.indexOf(client);
      if (at < 0) return;
      server.idle.splice(at, 1);
      void closeQuietly(client).then(() => this.line.wake());
    }, this.options.idleMs);
    timer.unref();
    this.expiry.set(client, timer);
  }
}

function closeQuietly(client: EnvClient): Promise<void> {
  // The server's idle TTL reaps a session whose close is lost; nothing to do about it here.
  return client.close({ timeoutMs: 2_000 }).catch(() => undefined);
}

function validateUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(
      `env server ${JSON.stringify(url)} is not a URL (e.g. grpc://127.0.0.1:50051, http://127.0.0.1:8000)`,
    );
  }
  if (!/^(grpcs?|https?|wss?):$/.test(parsed.protocol))
    throw new ValidationError(
      `env server ${JSON.stringify(url)}: use grpc://, http:// or ws:// (got ${parsed.protocol}//)`,
    );
}
