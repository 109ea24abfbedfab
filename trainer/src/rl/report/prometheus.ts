import { Counter, Gauge, Registry } from 'prom-client';
import { overallSuccess, type RecordedUpdate } from './update.js';

export const METRIC_PREFIX = 'gauntlet_grpo_';

/** A TRL metric name as a Prometheus one: `clip_ratio/low_mean` → `gauntlet_grpo_clip_ratio_low_mean`. */
export function prometheusName(metric: string): string {
  const body = metric
    .replace(/[^a-zA-Z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/_{2,}/g, '_');
  return `${METRIC_PREFIX}${body || 'unnamed'}`;
}

/**
 * The latest update as gauges: one per metric (created on first sight), success by task as one
 * labelled gauge, the step and version, and a counter of updates. Two metric names that sanitise
 * to the same Prometheus name keep the first; the other is reported once through `log`.
 */
export class GrpoGauges {
  private readonly gauges = new Map<string, { metric: string; gauge: Gauge }>();
  private readonly warned = new Set<string>();
  private readonly step: Gauge;
  private readonly version: Gauge;
  private readonly success: Gauge;
  private readonly successOverall: Gauge;
  private readonly updates: Counter;

  constructor(
    readonly registry: Registry,
    private readonly log: (line: string) => void,
  ) {
    const registers = [registry];
    this.step = new Gauge({ name: `${METRIC_PREFIX}step`, help: 'Optimizer updates taken', registers });
    this.version = new Gauge({ name: `${METRIC_PREFIX}version`, help: 'Adapter version published', registers });
    this.success = new Gauge({
      name: `${METRIC_PREFIX}success_rate_by_task`,
      help: "Success rate of the last update's groups, per task",
      labelNames: ['task'],
      registers,
    });
    this.successOverall = new Gauge({
      name: `${METRIC_PREFIX}success_rate`,
      help: "Success rate of the last update's groups",
      registers,
    });
    this.updates = new Counter({ name: `${METRIC_PREFIX}updates_total`, help: 'Updates recorded', registers });
  }

  set(update: RecordedUpdate): void {
    this.step.set(update.step);
    this.version.set(update.version);
    this.updates.inc();
    const overall = overallSuccess(update);
    if (overall !== null) this.successOverall.set(overall);
    for (const [task, rate] of Object.entries(update.successByTask))
      if (rate !== null) this.success.set({ task }, rate);
    for (const [metric, value] of Object.entries(update.metrics)) {
      if (value === null || metric === 'success_rate') continue;
      this.gauge(metric)?.set(value);
    }
  }

  private gauge(metric: string): Gauge | null {
    const name = prometheusName(metric);
    const known = this.gauges.get(name);
    if (known) return known.metric === metric ? known.gauge : this.clash(metric, name, known.metric);
    if (this.registry.getSingleMetric(name)) return this.clash(metric, name, 'a built-in metric');
    const gauge = new Gauge({ name, help: `GRPO metric ${metric} at the last update`, registers: [this.registry] });
    this.gauges.set(name, { metric, gauge });
    return gauge;
  }

  private clash(metric: string, name: string, holder: string): null {
    if (!this.warned.has(metric)) {
      this.warned.add(metric);
      this.log(`run report: metric ${metric} is not exported: ${name} already holds ${holder}`);
    }
    return null;
  }
}
