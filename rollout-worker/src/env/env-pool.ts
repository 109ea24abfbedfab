import { ValidationError } from '@gauntlet/proto';
import { createEnvClient, type EnvClient } from '@gauntlet/proto/client';
import type { WorkerMetrics } from '../metrics/metrics.js';
import { probeHealth, type HealthProbe } from './health.js';
import { EnvLease, type EnvServer, type LeasablePool } from './env-lease.js';

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
  probe?: HealthProbe;
  /** Makes the client for one server (default: the SDK's createEnvClient). */
  connect?: (url: string) => EnvClient;
  metrics?: WorkerMetrics | undefined;
}

/**
 * The env servers a worker plays on: health-checked, taken in round robin, with sessions kept
 * open between episodes. Each episode gets an EnvLease whose reset moves on to the next server
 * when one is full (CapacityError) or unreachable.
 */
export class EnvPool implements LeasablePool {
  readonly servers: EnvServer[];
  private cursor = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly options: Required<
    Pick<EnvPoolOptions, 'probeIntervalMs' | 'probeTimeoutMs' | 'maxIdle' | 'probe' | 'connect'>
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
    return server.idle.pop() ?? this.options.connect(server.url);
  }

  /** Back from an episode: kept for the next one when it ended cleanly, closed otherwise. */
  giveBack(server: EnvServer, client: EnvClient, reusable: boolean): void {
    server.leased -= 1;
    const idle = this.servers.reduce((n, s) => n + s.idle.length, 0);
    if (reusable && idle < this.options.maxIdle) server.idle.push(client);
    else closeQuietly(client);
  }

  markDown(server: EnvServer, reason: 'unreachable' | 'capacity'): void {
    if (reason === 'unreachable') server.healthy = false;
    this.options.metrics?.envFailovers.inc({ reason });
    this.options.metrics?.envServersHealthy.set(this.servers.filter((s) => s.healthy).length);
  }

  /** Stops probing and closes the idle sessions (leased ones close when their episodes end). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    const idle = this.servers.flatMap((s) => s.idle.splice(0));
    await Promise.all(idle.map(closeQuietly));
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
