import { GauntletError, type StepResult } from '@gauntlet/proto';
import type { ActionInput, CallOptions, EnvClient, ResetInput } from '@gauntlet/proto/client';
import { EnvBusyError } from './env-busy.js';

/** One env server as the pool sees it. */
export interface EnvServer {
  readonly url: string;
  /** False after a failed probe or a call that found it unreachable; the next good probe restores it. */
  healthy: boolean;
  /** Sessions in use by episodes now. */
  leased: number;
  /** Open sessions waiting for the next episode. */
  readonly idle: EnvClient[];
}

/** An open session passed from an episode that ended to one waiting for it. */
export interface Handover {
  server: EnvServer;
  client: EnvClient;
}

/**
 * The pool as a lease uses it (EnvPool is the one); declared here so that the pool, which makes
 * leases, is the only one of the two that imports the other.
 */
export interface LeasablePool {
  candidates(): EnvServer[];
  take(server: EnvServer): EnvClient;
  giveBack(server: EnvServer, client: EnvClient, reusable: boolean): void;
  /** A client whose session never opened: closed, and no slot was freed. */
  discard(server: EnvServer, client: EnvClient): void;
  markDown(server: EnvServer, reason: 'unreachable' | 'capacity'): void;
  /** Waits in this worker's line for a session (see SessionQueue.wait). */
  waitForSession(pauseMs: number, signal?: AbortSignal): Promise<Handover | undefined>;
  /** A session is held; `waitedMs` when it took a wait for capacity. */
  acquired(waitedMs: number | undefined): void;
}

export interface AcquireOptions {
  signal?: AbortSignal | undefined;
  /** How long to wait while every server is full (default 0: fail with the CapacityError at once). */
  waitMs?: number;
  /** Deadline of each open call (default: the client's). */
  timeoutMs?: number | undefined;
}

/** Codes after which a reset moves to the next server; CAPACITY_REACHED leaves the server healthy. */
const UNREACHABLE = new Set(['INFRA_ERROR', 'FACTORY_ERROR', 'DEADLINE_EXCEEDED', 'SESSION_ERROR']);
const FIRST_PAUSE_MS = 50;
const MAX_PAUSE_MS = 1_000;

/**
 * One episode's env. acquire() holds a session before the episode starts: it tries the pool's
 * servers in turn (a full or unreachable one passes it to the next) and, while all are full,
 * waits in the worker's line for one. Every step then goes to the server that holds it. Release
 * the lease once the episode is over.
 */
export class EnvLease {
  private client: EnvClient | undefined;
  private server: EnvServer | undefined;
  private broken = false;

  constructor(private readonly pool: LeasablePool) {}

  /** Where the episode is being played (after acquire or reset). */
  get url(): string | undefined {
    return this.server?.url;
  }

  /**
   * Holds a session, waiting up to `waitMs` while every server is full: EnvBusyError once the
   * wait is over (with waitMs 0, the CapacityError itself); the signal's reason when it fires.
   * An unreachable or wrong env fails at once, as reset would.
   */
  async acquire(options: AcquireOptions = {}): Promise<void> {
    if (this.client) return;
    const started = Date.now();
    const waitMs = options.waitMs ?? 0;
    let waited = false;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(MAX_PAUSE_MS, pause * 2)) {
      const full = await this.tryServers(options);
      if (full === undefined) break;
      const left = started + waitMs - Date.now();
      if (left <= 0) throw waitMs > 0 ? new EnvBusyError(Date.now() - started, this.urls(), full) : full;
      waited = true;
      const handover = await this.pool.waitForSession(Math.min(left, pause * (0.5 + Math.random())), options.signal);
      if (handover) {
        this.hold(handover.server, handover.client);
        break;
      }
    }
    this.pool.acquired(waited ? Date.now() - started : undefined);
  }

  async reset(request?: ResetInput, options?: CallOptions): Promise<StepResult> {
    for (let tries = 1; ; tries++) {
      await this.acquire({ signal: options?.signal, timeoutMs: options?.timeoutMs });
      const server = this.server!;
      try {
        return await this.client!.reset(request, options);
      } catch (error) {
        this.broken = true;
        this.giveBack();
        if (!this.unreachable(error, options) || tries >= this.pool.candidates().length) throw error;
        // Found gone since it was opened (an idle session whose server died): on to the next one.
        this.pool.markDown(server, 'unreachable');
      }
    }
  }

  async step(action: string | ActionInput, options?: CallOptions): Promise<StepResult> {
    if (!this.client || !this.server) throw new Error('EnvLease: step before reset');
    try {
      return await this.client.step(action, options);
    } catch (error) {
      this.broken = true;
      if (this.unreachable(error, options)) this.pool.markDown(this.server, 'unreachable');
      throw error;
    }
  }

  /** Ends the lease: a cleanly finished session waits for the next episode, a broken one is closed. */
  release(clean: boolean): void {
    if (!clean) this.broken = true;
    this.giveBack();
  }

  /** Opens a session on the first server that has room; the CapacityError met when all are full. */
  private async tryServers(options: AcquireOptions): Promise<GauntletError | undefined> {
    const candidates = this.pool.candidates();
    let full: GauntletError | undefined;
    let last: unknown;
    for (const [i, server] of candidates.entries()) {
      const client = this.pool.take(server);
      try {
        await client.open({ signal: options.signal, timeoutMs: options.timeoutMs });
        this.hold(server, client);
        return undefined;
      } catch (error) {
        this.pool.discard(server, client);
        if (options.signal?.aborted) throw options.signal.reason;
        last = error;
        const moveOn = i < candidates.length - 1;
        if (error instanceof GauntletError && error.code === 'CAPACITY_REACHED') {
          full = error;
          if (moveOn) this.pool.markDown(server, 'capacity');
        } else if (this.unreachable(error, options)) this.pool.markDown(server, 'unreachable');
        else throw error;
      }
    }
    if (full) return full;
    throw last;
  }

  private unreachable(error: unknown, options: { signal?: AbortSignal | undefined } | undefined): boolean {
    return error instanceof GauntletError && UNREACHABLE.has(error.code) && !options?.signal?.aborted;
  }

  private hold(server: EnvServer, client: EnvClient): void {
    this.server = server;
    this.client = client;
    this.broken = false;
  }

  private urls(): string[] {
    return this.pool.candidates().map((s) => s.url);
  }

  private giveBack(): void {
    if (this.client && this.server) this.pool.giveBack(this.server, this.client, !this.broken);
    this.client = undefined;
    this.server = undefined;
  }
}
