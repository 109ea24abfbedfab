import type { StepResult } from '@gauntlet/proto';
import { taskInfo } from '@gauntlet/proto/agent';

/** Why the oracle did not act this turn, for the report. */
export type OracleSilence = 'no_oracle' | 'stuck';

/**
 * Reads the env's oracle hint (`observation.oracle_action`) off each reply. The oracle is
 * stateless, so on a step it cannot solve it may repeat itself forever: after `maxActionsPerStep`
 * actions on one Gauntlet step (or one page of any other task) it counts as stuck there.
 */
export class OracleHints {
  private step: unknown = Symbol('none');
  private onStep = 0;

  constructor(private readonly maxActionsPerStep: number) {}

  next(result: StepResult): { action: string } | { silence: OracleSilence; reason: string } {
    const info = result.metadata.browsergym_info;
    const action = info['oracle_action'];
    if (typeof action !== 'string')
      return {
        silence: 'no_oracle',
        reason: typeof info['oracle_error'] === 'string' ? info['oracle_error'] : 'the task has no oracle action here',
      };
    const step = taskInfo(result)['step'] ?? null;
    this.onStep = step === this.step ? this.onStep + 1 : 1;
    this.step = step;
    if (this.onStep > this.maxActionsPerStep)
      return { silence: 'stuck', reason: `the oracle spent ${this.maxActionsPerStep} actions on step ${String(step)}` };
    return { action };
  }
}
