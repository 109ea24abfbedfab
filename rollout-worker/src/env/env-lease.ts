import { GauntletError, type StepResult } from '@gauntlet/proto';
import type { ActionInput, CallOptions, EnvClient, ResetInput } from '@gauntlet/proto/client';

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

/**
 * The pool as a lease uses it (EnvPool is the one); declared here so that the pool, which makes
 * leases, is the only one of the two that imports the other.
 */
export interface LeasablePool {
  candidates(): EnvServer[];
  take(server: EnvServer): EnvClient;
  giveBack(server: EnvServer, client: EnvClient, reusable: boolean): void;
  markDown(server: EnvServer, reason: 'unreachable' | 'capacity'): void;
}

/** Codes after which a reset moves to the next server; CAPACITY_REACHED leaves the server healthy. */
const UNREACHABLE = new Set(['INFRA_ERROR', 'FACTORY_ERROR', 'DEADLINE_EXCEEDED', 'SESSION_ERROR']);

/**
 * One episode's env: reset tries the pool's servers in turn (a full or unreachable server
 * passes the episode to the next), then every step goes to the server that took the reset.
 * Release it once the episode is over.
 */
export class EnvLease {
  private client: EnvClient | undefined;
  private server: EnvServer | undefined;
  private broken = false;

  constructor(private readonly pool: LeasablePool) {}

  /** Where the episode is being played (after reset). */
  get url(): string | undefined {
    return this.server?.url;
  }

  async reset(request?: ResetInput, options?: CallOptions): Promise<StepResult> {
    this.giveBack();
    let last: unknown;
    for (const server of this.pool.candidates()) {
      const client = this.pool.take(server);
      try {
        const result = await client.reset(request, options);
        this.client = client;
        this.server = server;
        this.broken = false;
        return result;
      } catch (error) {
        last = error;
        const code = error instanceof GauntletError ? error.code : undefined;
        const movable =
          !options?.signal?.aborted && (code === 'CAPACITY_REACHED' || (code !== undefined && UNREACHABLE.has(code)));
        this.pool.giveBack(server, client, code === 'CAPACITY_REACHED');
        if (!movable) throw error;
        this.pool.markDown(server, code === 'CAPACITY_REACHED' ? 'capacity' : 'unreachable');
      }
    }
    throw last;
  }

  async step(action: string | ActionInput, options?: CallOptions): Promise<StepResult> {
    if (!this.client || !this.server) throw new Error('EnvLease: step before reset');
    try {
      return await this.client.step(action, options);
    } catch (error) {
      this.broken = true;
      if (error instanceof GauntletError && UNREACHABLE.has(error.code) && !options?.signal?.aborted)
        this.pool.markDown(this.server, 'unreachable');
      throw error;
    }
  }

  /** Ends the lease: a cleanly finished session waits for the next episode, a broken one is closed. */
  release(clean: boolean): void {
    if (!clean) this.broken = true;
    this.giveBack();
  }

  private giveBack(): void {
    if (this.client && this.server) this.pool.giveBack(this.server, this.client, !this.broken);
    this.client = undefined;
    this.server = undefined;
  }
}
