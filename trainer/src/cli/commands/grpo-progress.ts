import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatDuration } from '../progress.js';

/**
 * The run's record of each update: one JSON line in metrics.jsonl, one progress line on the
 * terminal, and the latest figures as Prometheus gauges for /metrics.
 */
export class GrpoProgress {
  private latest: Record<string, number> = {};
  private readonly started = performance.now();

  constructor(
    private readonly file: string,
    private readonly maxSteps: number,
    private readonly print: (line: string) => void,
  ) {}

  async update(step: number, metrics: Record<string, number>): Promise<void> {
    this.latest = { step, ...metrics };
    await mkdir(dirname(this.file), { recursive: true });
    await appendFile(this.file, `${JSON.stringify({ step, time: new Date().toISOString(), ...metrics })}\n`);
    const elapsed = (performance.now() - this.started) / 1000;
    const eta = (elapsed / step) * (this.maxSteps - step);
    const f = (name: string, digits = 3) => (metrics[name] ?? NaN).toFixed(digits);
    this.print(
      [
        `update ${step}/${this.maxSteps}`,
        `reward ${f('reward')}`,
        `success ${f('outcomes/success', 2)}`,
        `loss ${f('loss', 4)}`,
        `kl ${f('kl', 4)}`,
        `staleness ${f('staleness/mean', 1)}`,
        `dropped ${metrics['groups/dropped'] ?? 0}+${metrics['groups/stale'] ?? 0} stale`,
        `steps/s ${f('throughput/env_steps_per_s', 1)}`,
        `eta ${formatDuration(eta)}`,
      ].join('  '),
    );
  }

  /** The latest update's figures as Prometheus gauges (`gauntlet_grpo_<name>`). */
  prometheus(): string {
    return Object.entries(this.latest)
      .map(([name, value]) => {
        const metric = `gauntlet_grpo_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
        return `# TYPE ${metric} gauge\n${metric} ${Number.isFinite(value) ? value : 'NaN'}\n`;
      })
      .join('');
  }
}
