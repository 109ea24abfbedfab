import { RedisConnection, type RedisOptions } from 'bullmq';
import { GauntletError } from '../../errors.js';

export type RedisState = 'connecting' | 'up' | 'down';

/** Redis could not be reached in time (at a CLI's start): the reason and the URL, in one line. */
export class RedisUnreachableError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(message: string) {
    super('INFRA_ERROR', message);
  }
}

/** Redis is set to evict keys under memory pressure: BullMQ would lose jobs (episodes, groups). */
export class RedisEvictionError extends GauntletError {
  static override readonly httpStatus = 503;
  constructor(message: string) {
    super('INFRA_ERROR', message);
  }
}

/** Something that reports errors as BullMQ's Queue, Worker, QueueEvents and FlowProducer do. */
interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Errors that only say the connection is down (the watch reports that once, not per client per retry). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

export function isConnectionError(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    (typeof code === 'string' && CONNECTION_CODES.has(code)) ||
    /Connection is closed|Stream isn't writeable|connect ETIMEDOUT|ECONNREFUSED|ECONNRESET/.test(error.message)
  );
}

/**
 * The one view of whether a deployment's Redis is reachable. ioredis reconnects every BullMQ
 * client on its own (with exponential backoff, see redisOptions) and each would report every
 * failed try; instead, their connection errors are routed here (track) and dropped, and one
 * connection of the watch's own says when Redis went down and came back: one line per change.
 */
export class RedisWatch {
  private current: RedisState = 'connecting';
  private reason = '';
  private probe: RedisConnection | undefined;
  /** Every change; `line` is null for the first answer at start (no news). */
  private readonly listeners = new Set<(state: RedisState, line: string | null) => void>();
  private readonly errorListeners = new Set<(error: Error) => void>();

  constructor(
    /** The Redis URL with any password hidden: safe to print. */
    readonly url: string,
    private readonly options: RedisOptions,
  ) {}

  get state(): RedisState {
    return this.current;
  }

  /** Whether the watch is running and Redis answers (false before start). */
  get up(): boolean {
    return this.current === 'up';
  }

  /** Why Redis is down (the last connection error), or ''. */
  get downReason(): string {
    return this.current === 'down' ? this.reason : '';
  }

  /** Opens the watch's own connection (once); state changes are reported from then on. */
  start(): this {
    if (this.probe) return this;
    this.probe = new RedisConnection({ ...this.options }, { shared: false, skipVersionCheck: true });
    this.probe.on('ready', () => this.set('up', ''));
    this.probe.on('error', (error: Error) => this.set('down', error.message || String(error)));
    // ioredis reports a dropped connection as 'close', not always with an error first.
    this.probe.on('close', () => this.current === 'up' && this.set('down', 'the connection closed'));
    this.probe.client.catch(() => undefined);
    return this;
  }

  /** Calls `listener` with one line per change (down, up again); returns the unsubscribe function. */
  onChange(listener: (state: RedisState, line: string) => void): () => void {
    const each = (state: RedisState, line: string | null) => line !== null && listener(state, line);
    this.listeners.add(each);
    return () => this.listeners.delete(each);
  }

  /** Calls `listener` with the errors of tracked clients that are not about the connection. */
  onError(listener: (error: Error) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /**
   * Routes a BullMQ client's errors here: connection errors are dropped (the watch's own
   * connection reports the outage once), others go to onError. Without a listener BullMQ would
   * print each one with its stack.
   */
  track<T extends ErrorEmitter>(client: T): T {
    client.on('error', (error: Error) => {
      if (isConnectionError(error)) return;
      for (const listener of this.errorListeners) listener(error);
    });
    return client;
  }

  /**
   * Resolves once Redis answers; rejects with RedisUnreachableError (the URL and the last error)
   * after `timeoutMs`, or with the signal's reason when it aborts first. Starts the watch.
   */
  async reachable(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    this.start();
    if (this.up) return;
    await new Promise<void>((resolve, reject) => {
      const finish = (error?: unknown) => {
        clearTimeout(timer);
        off();
        signal?.removeEventListener('abort', aborted);
        if (error === undefined) resolve();
        else reject(error);
      };
      const aborted = () => finish(signal!.reason);
      const timer = setTimeout(
        () =>
          finish(
            new RedisUnreachableError(
              `cannot reach Redis at ${this.url} within ${timeoutMs} ms: ${this.reason || 'no answer'}`,
            ),
          ),
        timeoutMs,
      );
      const waiter = (state: RedisState) => state === 'up' && finish();
      this.listeners.add(waiter);
      const off = () => this.listeners.delete(waiter);
      if (signal?.aborted) aborted();
      else signal?.addEventListener('abort', aborted, { once: true });
    });
  }

  /**
   * Redis's `maxmemory-policy` (from INFO, which managed services that rename CONFIG still
   * answer), or undefined when it cannot be read. Call after reachable.
   */
  async maxmemoryPolicy(): Promise<string | undefined> {
    if (!this.probe) return undefined;
    try {
      const info = await (await this.probe.client).info();
      return /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
    } catch {
      return undefined;
    }
  }

  /**
   * Throws RedisEvictionError when Redis evicts keys (any `maxmemory-policy` but `noeviction`):
   * under memory pressure it would delete queued jobs, and groups would vanish unaccounted.
   */
  async refuseEviction(): Promise<void> {
    const policy = await this.maxmemoryPolicy();
    if (policy === undefined || policy === 'noeviction') return;
    throw new RedisEvictionError(
      `Redis at ${this.url} has maxmemory-policy ${policy}: it may evict queued jobs; set it to noeviction (redis-server --maxmemory-policy noeviction, or CONFIG SET maxmemory-policy noeviction)`,
    );
  }

  /** Closes the watch's own connection at once (it never waits on an unreachable Redis). */
  async close(): Promise<void> {
    const probe = this.probe;
    this.probe = undefined;
    this.listeners.clear();
    if (probe) await probe.close(true).catch(() => undefined);
  }

  private set(state: RedisState, reason: string): void {
    const was = this.current;
    this.reason = reason;
    if (state === was) return;
    this.current = state;
    // Redis answering at start is no news; the commands say they are ready themselves.
    const line =
      state === 'down'
        ? `Redis at ${this.url} is unreachable (${reason}); reconnecting with backoff`
        : was === 'down'
          ? `Redis at ${this.url} is reachable again`
          : null;
    for (const listener of [...this.listeners]) listener(state, line);
  }
}

/** A Redis URL fit to print: the password, if any, replaced by `***`. */
export function printableRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
