/** What one progress line reports about an optimizer step. */
export interface StepReport {
  step: number;
  loss: number;
  /** Mean loss of the completion tokens alone, when the loss also weighs other tokens (sft --prompt-loss-weight). */
  completionLoss?: number;
  lr: number;
  gradNorm: number;
  /** Tokens the step ran through the model (prompt and completion, no padding). */
  tokens: number;
}

/**
 * One line per optimizer step: step, loss, learning rate, gradient norm (before clipping),
 * throughput of that step, and the time left at the mean pace so far.
 */
export class StepProgress {
  private readonly started: number;
  private last: number;

  constructor(
    private readonly totalSteps: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
    this.last = this.started;
  }

  line(report: StepReport): string {
    const t = this.now();
    const seconds = Math.max((t - this.last) / 1e3, 1e-9);
    this.last = t;
    const perStep = (t - this.started) / 1e3 / report.step;
    const width = String(this.totalSteps).length;
    return [
      `step ${String(report.step).padStart(width)}/${this.totalSteps}`,
      `loss ${report.loss.toFixed(4)}`,
      ...(report.completionLoss === undefined ? [] : [`completion-loss ${report.completionLoss.toFixed(4)}`]),
      `lr ${report.lr.toExponential(2)}`,
      `grad-norm ${report.gradNorm.toFixed(4)}`,
      `tok/s ${Math.round(report.tokens / seconds)}`,
      `eta ${formatDuration(perStep * (this.totalSteps - report.step))}`,
    ].join('  ');
  }
}

/** 75 → "1m15s", 3700 → "1h01m", 4 → "4s". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
