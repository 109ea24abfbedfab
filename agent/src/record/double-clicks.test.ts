import type { RecordedStep } from '@gauntlet/proto';
import { describe, expect, it } from 'vitest';
import { addRecordedStep } from './double-clicks.js';

const step = (index: number, action: string, reward = 0, done = false) =>
  ({ index, action, before: { page: index } as never, reward, done, wall_time_s: index }) as RecordedStep;

describe('addRecordedStep', () => {
  it("folds a click and the dblclick on the same bid into one dblclick on the click's page, with both rewards", () => {
    const steps: RecordedStep[] = [];
    addRecordedStep(steps, step(0, "fill('3', 'x')"));
    addRecordedStep(steps, step(1, "click('7')", 0.25));
    const kept = addRecordedStep(steps, step(2, "dblclick('7')", 0.5, true));
    expect(kept).toEqual({ ...step(1, "dblclick('7')", 0.75, true), wall_time_s: 1 });
    expect(steps.map((s) => [s.index, s.action])).toEqual([
      [0, "fill('3', 'x')"],
      [1, "dblclick('7')"],
    ]);
    // The env's numbering goes on; the demo's follows its own steps.
    addRecordedStep(steps, step(3, "click('9')"));
    expect(steps.map((s) => s.index)).toEqual([0, 1, 2]);
  });

  it('keeps a dblclick that follows anything but a click on its bid', () => {
    const steps: RecordedStep[] = [];
    for (const [i, action] of ["click('8')", "dblclick('7')", "dblclick('7')"].entries())
      addRecordedStep(steps, step(i, action));
    expect(steps.map((s) => s.action)).toEqual(["click('8')", "dblclick('7')", "dblclick('7')"]);
  });
});
