import { describe, expect, it } from 'vitest';
import { formatDuration, StepProgress } from './progress.js';

describe('StepProgress', () => {
  it("reports step, loss, lr, grad-norm, the step's throughput and the time left at the mean pace", () => {
    let now = 0;
    const progress = new StepProgress(10, () => now);
    now = 2000;
    expect(progress.line({ step: 1, loss: 2.5, lr: 1e-4, gradNorm: 0.5, tokens: 1000 })).toBe(
      'step  1/10  loss 2.5000  lr 1.00e-4  grad-norm 0.5000  tok/s 500  eta 18s',
    );
    now = 3000;
    expect(progress.line({ step: 2, loss: 1.25, lr: 5e-5, gradNorm: 1.5, tokens: 1000 })).toBe(
      'step  2/10  loss 1.2500  lr 5.00e-5  grad-norm 1.5000  tok/s 1000  eta 12s',
    );
  });

  it('adds the completion-only loss when there is one', () => {
    let now = 0;
    const progress = new StepProgress(3, () => now);
    now = 1000;
    expect(progress.line({ step: 1, loss: 2, completionLoss: 3.5, lr: 1e-3, gradNorm: 1, tokens: 10 })).toBe(
      'step 1/3  loss 2.0000  completion-loss 3.5000  lr 1.00e-3  grad-norm 1.0000  tok/s 10  eta 2s',
    );
  });

  it('formats durations for humans', () => {
    expect([4, 75, 3700, -1].map(formatDuration)).toEqual(['4s', '1m15s', '1h01m', '0s']);
  });
});
