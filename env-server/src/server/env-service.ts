import {
  CapacityError,
  FactoryError,
  GauntletError,
  parseOrThrow,
  RecordRequest,
  ResetRequest,
  type RecordReply,
  StepRequest,
  type State,
  type StepResult,
} from '@gauntlet/proto';
import { BrowserPool, type PoolOptions } from '../browser/pool.js';
import { HeadedBrowser } from '../browser/headed.js';
import type { ServerConfig } from '../config.js';
import { SessionManager, type CloseReason } from '../sessions/manager.js';
import type { EnvSession } from '../sessions/session.js';
import { TaskRegistry } from '../tasks/registry.js';
import { taskFamilies } from '../tasks/families.js';
import { withTaskSettings, type EnvConfig } from '../tasks/task-settings.js';
import { EnvMetrics } from './metrics.js';
import { BufferBudget } from './buffer-budget.js';

export type Transport = 'http' | 'ws' | 'grpc' | 'inproc';

/**
 * The environment as every transport sees it: validated requests in, typed results out. HTTP,
 * WebSocket and gRPC are thin adapters over this one object.
 */
export class EnvService {
  readonly metrics = new EnvMetrics();
  readonly registry: TaskRegistry;
  readonly pool: BrowserPool;
  /** The visible browser of headed and recording sessions, started on first use. */
  readonly headed: HeadedBrowser;
  readonly sessions: SessionManager;
  /** The operator's settings, with what the tasks imply (real MiniWoB++'s origin, the default task's display). */
  readonly config: EnvConfig;
  /** What every WS/gRPC connection buffers together, bounded by --max-buffered-bytes. */
  readonly buffers: BufferBudget;

  constructor(config: ServerConfig, registry = new TaskRegistry(taskFamilies(config))) {
    this.registry = registry;
    this.config = withTaskSettings(config, registry);
    this.buffers = new BufferBudget(config.maxBufferedBytes);
    this.metrics.bufferedBytesNow = () => this.buffers.usedBytes;
    const poolOptions: PoolOptions = {
      headless: config.headless,
      display: this.config.warmDisplay,
      warm: config.warmContexts,
      pageTimeoutMs: config.pageTimeoutMs,
      site: registry.site,
      mounts: registry.mounts,
      cachedOrigins: this.config.cachedOrigins,
      origins: { extra: this.config.allowedOrigins },
      extraArgs: config.chromiumArgs,
      ...(config.chromiumPath ? { executablePath: config.chromiumPath } : {}),
    };
    this.pool = new BrowserPool(poolOptions);
    this.headed = new HeadedBrowser(
      { ...poolOptions, allowed: config.allowHeaded, cdpPort: config.headedCdpPort },
      (pool) => this.sessions.watchPool(pool),
    );
    this.pool.on('restart', () => this.metrics.browserRestarts.inc());
    this.pool.on('warm-discarded', () => this.metrics.warmDiscarded.inc());
    this.sessions = new SessionManager(
      { pool: this.pool, headed: this.headed, registry, config: this.config },
      { maxSessions: config.maxSessions, idleTtlMs: config.idleTtlMs },
      {
        onOpen: () => this.metrics.sessionsActive.set(this.sessions.size),
        onClose: (_s, reason) => {
          this.metrics.sessionsActive.set(this.sessions.size);
          this.metrics.sessionsClosed.inc({ reason });
        },
      },
    );
  }

  /** Starts the browser in the background: /health answers at once, sessions wait for the launch. */
  start(): Promise<void> {
    return this.pool.start();
  }

  async openSession(transport: Transport): Promise<EnvSession> {
    try {
      const session = await this.sessions.open();
      this.metrics.sessionsOpened.inc({ transport });
      return session;
    } catch (error) {
      if (error instanceof CapacityError) this.metrics.capacityRejections.inc();
      if (error instanceof GauntletError) throw error;
      // The browser could not give us a context: every transport reports the same FACTORY_ERROR.
      throw new FactoryError(`Could not create the environment: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  /** `cancel` aborts when the caller goes away (its call cancelled, its connection lost): the reset stops. */
  reset(session: EnvSession, body: unknown, cancel?: AbortSignal): Promise<StepResult> {
    const request = parseOrThrow(ResetRequest, body ?? {});
    return this.metrics.time(this.metrics.resetSeconds, this.metrics.resets, () => session.reset(request, cancel));
  }

  /** `body` is `{action, timeout_s?}` (HTTP) — WS frames are converted by the WS adapter. */
  step(session: EnvSession, body: unknown, cancel?: AbortSignal): Promise<StepResult> {
    const request = parseOrThrow(StepRequest, body);
    const timeoutMs = request.timeout_s !== undefined ? request.timeout_s * 1000 : undefined;
    return this.metrics.time(this.metrics.stepSeconds, this.metrics.steps, () =>
      session.step(request.action.action_str, timeoutMs, cancel),
    );
  }

  /** A recording session's next action; `body` is `{wait_s?}` (default 10 s). */
  record(session: EnvSession, body: unknown, cancel?: AbortSignal): Promise<RecordReply> {
    const request = parseOrThrow(RecordRequest, body ?? {});
    return session.record((request.wait_s ?? 10) * 1000, cancel);
  }

  state(session: EnvSession): State {
    return session.state();
  }

  close(session: EnvSession, reason: CloseReason): Promise<void> {
    return this.sessions.close(session.id, reason);
  }

  async shutdown(): Promise<void> {
    await this.sessions.closeAll();
    await this.pool.close();
    await this.headed.close();
  }
}
