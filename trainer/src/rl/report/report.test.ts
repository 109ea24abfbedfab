import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { GrpoGauges, prometheusName } from './prometheus.js';
import { progressLine } from './progress.js';
import { RunReport } from './run-report.js';
import { normaliseUpdate } from './update.js';

describe('run report pieces', () => {
  it('turns TRL metric names into Prometheus names', () => {
    expect(prometheusName('clip_ratio/low_mean')).toBe('gauntlet_grpo_clip_ratio_low_mean');
    expect(prometheusName('sampling/sampling_logp_difference/max')).toBe(
      'gauntlet_grpo_sampling_sampling_logp_difference_max',
    );
    expect(prometheusName('completions/mean_length')).toBe('gauntlet_grpo_completions_mean_length');
    expect(prometheusName('env steps/s')).toBe('gauntlet_grpo_env_steps_s');
    expect(prometheusName('//')).toBe('gauntlet_grpo_unnamed');
  });

  it('keeps the first of two names that sanitise alike and says so once', async () => {
    const lines: string[] = [];
    const registry = new Registry();
    const gauges = new GrpoGauges(registry, (l) => lines.push(l));
    const update = normaliseUpdate({ step: 1, version: 1, metrics: { 'a/b': 1, a_b: 2, step: 5 }, successByTask: {} });
    gauges.set(update);
    gauges.set(update);
    const text = await registry.metrics();
    expect(text).toContain('gauntlet_grpo_a_b 1');
    expect(text).toContain('gauntlet_grpo_step 1');
    expect(lines).toEqual([
      'run report: metric a_b is not exported: gauntlet_grpo_a_b already holds a/b',
      'run report: metric step is not exported: gauntlet_grpo_step already holds a built-in metric',
    ]);
  });

  it('refuses malformed updates by field', () => {
    expect(() => normaliseUpdate({ step: -1, version: 0, metrics: {}, successByTask: {} })).toThrow(/step/);
    expect(() =>
      normaliseUpdate({ step: 1, version: 0, metrics: { x: '1' as unknown as number }, successByTask: {} }),
    ).toThrow(/metrics\.x: expected a number/);
    expect(() => normaliseUpdate({ step: 1, version: 0, metrics: {}, successByTask: [] as never })).toThrow(
      /successByTask/,
    );
  });

  it('prints dashes for what an update lacks, and no rates on the first update', () => {
    const line = progressLine(normaliseUpdate({ step: 1, version: 0, metrics: {}, successByTask: {} }), undefined);
    expect(line).toBe('update 1 (v0) | reward – | success –');
  });

  it('thins old points past maxPoints, keeping the first and the newest', async () => {
    const report = new RunReport({ jsonlPath: '/dev/null', maxPoints: 4 });
    for (let step = 1; step <= 9; step++) await report.record({ step, version: step, metrics: {}, successByTask: {} });
    const steps = report.curves().map((u) => u.step);
    expect(steps.length).toBeLessThanOrEqual(4);
    expect(steps[0]).toBe(1);
    expect(steps.at(-1)).toBe(9);
  });
});
