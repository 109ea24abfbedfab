import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { unexpectedErrorCount } from './last-resort.js';
import { CancelledError } from '../deadline/cancelled.js';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Prometheus figures for one server (own registry, so several servers can live in one process). */
export class EnvMetrics {
  readonly registry = new Registry();
  readonly sessionsActive = new Gauge({
    name: 'gauntlet_env_sessions_active',
    help: 'Sessions currently open',
    registers: [this.registry],
  });
  readonly sessionsOpened = new Counter({
    name: 'gauntlet_env_sessions_opened_total',
    help: 'Sessions opened',
    labelNames: ['transport'],
    registers: [this.registry],
  });
  readonly sessionsClosed = new Counter({
    name: 'gauntlet_env_sessions_closed_total',
    help: 'Sessions closed, by reason',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly capacityRejections = new Counter({
    name: 'gauntlet_env_capacity_rejections_total',
    help: 'Sessions refused at capacity',
    registers: [this.registry],
  });
  readonly steps = new Counter({
    name: 'gauntlet_env_steps_total',
    help: 'Steps, by outcome (ok, cancelled, or the error code)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly resets = new Counter({
    name: 'gauntlet_env_resets_total',
    help: 'Resets, by outcome (ok, cancelled, or the error code)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly stepSeconds = new Histogram({
    name: 'gauntlet_env_step_seconds',
    help: 'Step latency',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly resetSeconds = new Histogram({
    name: 'gauntlet_env_reset_seconds',
    help: 'Reset latency',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly browserRestarts = new Counter({
    name: 'gauntlet_env_browser_restarts_total',
    help: 'Chromium relaunches after a crash',
    registers: [this.registry],
  });
  readonly unexpectedErrors = new Gauge({
    name: 'gauntlet_env_unexpected_errors',
    help: 'Errors that reached the last-resort handler since start (a bug; the server kept serving)',
    registers: [this.registry],
    collect() {
      this.set(unexpectedErrorCount());
    },
  });
  readonly warmDiscarded = new Counter({
    name: 'gauntlet_env_warm_pages_discarded_total',
    help: 'Warm pages thrown away (and replaced) because their renderer crashed',
    registers: [this.registry],
  });
  readonly errors = new Counter({
    name: 'gauntlet_env_errors_total',
    help: 'Errors answered, by code',
    labelNames: ['code'],
    registers: [this.registry],
  });

  /** Where the buffered-bytes gauge reads from (the service's BufferBudget). */
  bufferedBytesNow: () => number = () => 0;
  readonly bufferedBytes: Gauge = new Gauge({
    name: 'gauntlet_env_buffered_bytes',
    help: 'Bytes WS/gRPC connections hold: requests waiting for their turn, replies not yet sent (--max-buffered-bytes)',
    registers: [this.registry],
    collect: (): void => this.bufferedBytes.set(this.bufferedBytesNow()),
  });

  /** Counts an error answered to a caller; a call the caller cancelled is answered to nobody. */
  countError(error: unknown): void {
    if (error instanceof CancelledError) return;
    this.errors.inc({ code: (error as { code?: string }).code ?? 'INTERNAL' });
  }

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'gauntlet_env_' });
  }

  /** Times `work` into `histogram` and counts the outcome; a caller that went away is `cancelled`, not an error. */
  async time<T>(histogram: Histogram, counter: Counter<'outcome'>, work: () => Promise<T>): Promise<T> {
    const stop = histogram.startTimer();
    try {
      const result = await work();
      counter.inc({ outcome: 'ok' });
      return result;
    } catch (error) {
      counter.inc({
        outcome: error instanceof CancelledError ? 'cancelled' : ((error as { code?: string }).code ?? 'error'),
      });
      throw error;
    } finally {
      stop();
    }
  }
}
