import { overallSuccess, type RecordedUpdate } from './update.js';

const fixed = (v: number | null | undefined, digits = 3) => (typeof v === 'number' ? v.toFixed(digits) : '–');

/**
 * One terminal line per update: step and version, reward, success (overall and per task), KL,
 * and throughput since the previous update (trajectories/s, env steps/s, seconds per update).
 */
export function progressLine(update: RecordedUpdate, previous: RecordedUpdate | undefined): string {
  const m = update.metrics;
  const tasks = Object.entries(update.successByTask)
    .map(([task, rate]) => `${task} ${fixed(rate, 2)}`)
    .join(', ');
  const parts = [
    `update ${update.step} (v${update.version})`,
    `reward ${fixed(m['reward'])}`,
    `success ${fixed(overallSuccess(update), 2)}${tasks ? ` [${tasks}]` : ''}`,
  ];
  if (m['kl'] !== undefined) parts.push(`kl ${fixed(m['kl'], 4)}`);
  const seconds = previous ? (update.time - previous.time) / 1000 : 0;
  if (seconds > 0) {
    const rates: string[] = [];
    if (update.trajectories !== undefined) rates.push(`${(update.trajectories / seconds).toFixed(2)} traj/s`);
    if (update.envSteps !== undefined) rates.push(`${(update.envSteps / seconds).toFixed(1)} env steps/s`);
    rates.push(`${seconds.toFixed(1)} s/update`);
    parts.push(rates.join(' '));
  }
  return parts.join(' | ');
}
