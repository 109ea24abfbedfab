import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { unexpectedErrorCount } from './last-resort.js';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Prometheus figures for one server (own registry, so several servers can live in one process). */
export class EnvMetrics {
  readonly registry = new Registry();
  readonly sessionsActive = new Gauge({ name: 'gauntlet_env_sessions_active', help: 'Sessions currently open', registers: [this.registry] });
  readonly sessionsOpened = new Counter({ name: 'gauntlet_env_sessions_opened_total', help: 'Sessions opened', labelNames: ['transport'], registers: [this.registry] });
  readonly sessionsClosed = new Counter({ name: 'gauntlet_env_sessions_closed_total', help: 'Sessions closed, by reason', labelNames: ['reason'], registers: [this.registry] });
  readonly capacityRejections = new Counter({ name: 'gauntlet_env_capacity_rejections_total', help: 'Sessions refused at capacity', registers: [this.registry] });
  readonly steps = new Counter({ name: 'gauntlet_env_steps_total', help: 'Steps, by outcome', labelNames: ['outcome'], registers: [this.registry] });
  readonly resets = new Counter({ name: 'gauntlet_env_resets_total', help: 'Resets, by outcome', labelNames: ['outcome'], registers: [this.registry] });
  readonly stepSeconds = new Histogram({ name: 'gauntlet_env_step_seconds', help: 'Step latency', buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly resetSeconds = new Histogram({ name: 'gauntlet_env_reset_seconds', help: 'Reset latency', buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly browserRestarts = new Counter({ name: 'gauntlet_env_browser_restarts_total', help: 'Chromium relaunches after a crash', registers: [this.registry] });
  readonly unexpectedErrors = new Gauge({
    name: 'gauntlet_env_unexpected_errors',
    help: 'Errors that reached the last-resort handler since start (a bug; the server kept serving)',
    registers: [this.registry],
    collect() {
      this.set(unexpectedErrorCount());
    },
  });
  readonly errors = new Counter({ name: 'gauntlet_env_errors_total', help: 'Errors answered, by code', labelNames: ['code'], registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'gauntlet_env_' });
  }

  /** Times `work` into `histogram` and counts the outcome. */
  async time<T>(histogram: Histogram, counter: Counter<'outcome'>, work: () => Promise<T>): Promise<T> {
    const stop = histogram.startTimer();
    try {
      const result = await work();
      counter.inc({ outcome: 'ok' });
      return result;
    } catch (error) {
      counter.inc({ outcome: (error as { code?: string }).code ?? 'error' });
      throw error;
    } finally {
      stop();
    }
  }
}
