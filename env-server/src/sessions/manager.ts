import { CapacityError, SessionNotFoundError } from '@gauntlet/proto';
import type { BrowserPool } from '../browser/pool.js';
import { EnvSession, type SessionDeps } from './session.js';

export interface ManagerHooks {
  onOpen?(session: EnvSession): void;
  onClose?(session: EnvSession, reason: CloseReason): void;
}

export type CloseReason = 'client' | 'disconnect' | 'idle' | 'shutdown' | 'failed';

/**
 * Sessions are leases: at most `maxSessions` at once, closed on request, on disconnect, or by the
 * idle reaper. Every transport (HTTP, WS, gRPC) opens sessions here, so limits are shared.
 */
export class SessionManager {
  private readonly sessions = new Map<string, EnvSession>();
  /** Slots reserved by sessions still opening, so concurrent opens cannot overshoot. */
  private opening = 0;
  private reaper: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: SessionDeps,
    private readonly limits: { maxSessions: number; idleTtlMs: number },
    private readonly hooks: ManagerHooks = {},
  ) {
    this.watchPool(deps.pool);
    if (limits.idleTtlMs > 0) {
      const every = Math.max(50, Math.min(limits.idleTtlMs / 4, 30_000));
      this.reaper = setInterval(() => void this.reapIdle(), every);
      this.reaper.unref();
    }
  }

  /** A browser of `pool` exited: the sessions whose contexts lived in it are broken. */
  watchPool(pool: BrowserPool): void {
    pool.on('browser-lost', (generation) => {
      for (const session of this.sessions.values()) {
        if (session.usesPool(pool) && session.generation === generation)
          session.markBroken('the browser process exited');
      }
    });
  }

  get size(): number {
    return this.sessions.size;
  }

  get max(): number {
    return this.limits.maxSessions;
  }

  async open(): Promise<EnvSession> {
    const inUse = this.sessions.size + this.opening;
    if (inUse >= this.limits.maxSessions) throw new CapacityError(inUse, this.limits.maxSessions);
    this.opening += 1;
    const session = new EnvSession(this.deps);
    try {
      await session.open();
    } catch (error) {
      await session.close();
      throw error;
    } finally {
      this.opening -= 1;
    }
    this.sessions.set(session.id, session);
    this.hooks.onOpen?.(session);
    return session;
  }

  get(id: string): EnvSession {
    const session = this.sessions.get(id);
    if (!session) throw new SessionNotFoundError(id);
    return session;
  }

  all(): EnvSession[] {
    return [...this.sessions.values()];
  }

  find(id: string): EnvSession | undefined {
    return this.sessions.get(id);
  }

  async close(id: string, reason: CloseReason): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    await session.close();
    this.hooks.onClose?.(session, reason);
  }

  /** Closes sessions idle longer than the TTL; returns how many. */
  async reapIdle(now = Date.now()): Promise<number> {
    const stale = [...this.sessions.values()].filter((s) => !s.busy && now - s.lastActivity > this.limits.idleTtlMs);
    await Promise.all(stale.map((s) => this.close(s.id, 'idle')));
    return stale.length;
  }

  async closeAll(): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id, 'shutdown')));
  }
}
