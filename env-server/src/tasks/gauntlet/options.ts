import { ValidationError } from '@gauntlet/proto';

/** Reset options the Gauntlet understands (`request.options`). */
export interface GauntletOptions {
  /** Step to start on; steps before it are played by the built-in oracle during reset. */
  startStep: number;
  /** Reward per newly solved step: 1.0 (`shaping: "step"`) or 1/steps (`shaping: "progress"`). */
  stepReward: number;
  /** Paid once, on the action that solves the last step. */
  terminalBonus: number;
}

const KNOWN = ['start_step', 'shaping', 'terminal_bonus'];

/** Validates reset options for a run of `total` steps; every problem is a ValidationError a user can act on. */
export function parseGauntletOptions(raw: Record<string, unknown>, total: number, taskName: string): GauntletOptions {
  const fail = (key: string, msg: string): never => {
    throw new ValidationError(`options.${key}: ${msg}`, [
      { loc: ['body', 'options', key], msg, type: 'value_error', input: raw[key] },
    ]);
  };
  for (const key of Object.keys(raw)) {
    if (!KNOWN.includes(key)) fail(key, `unknown option for ${taskName}; known options: ${KNOWN.join(', ')}`);
  }
  const startStep = raw['start_step'] ?? 1;
  if (typeof startStep !== 'number' || !Number.isInteger(startStep))
    fail('start_step', `must be an integer step number (got ${JSON.stringify(startStep)})`);
  if ((startStep as number) < 1 || (startStep as number) > total) {
    fail(
      'start_step',
      total === 1
        ? `${taskName} has a single step; start_step applies to the full "gauntlet" task`
        : `must be between 1 and ${total} (got ${startStep})`,
    );
  }
  const shaping = raw['shaping'] ?? 'step';
  if (shaping !== 'step' && shaping !== 'progress')
    fail(
      'shaping',
      `must be "step" (1.0 per solved step) or "progress" (1/${total} per solved step) (got ${JSON.stringify(shaping)})`,
    );
  const bonus = raw['terminal_bonus'] ?? 0;
  if (typeof bonus !== 'number' || !Number.isFinite(bonus) || bonus < 0)
    fail('terminal_bonus', `must be a number >= 0 (got ${JSON.stringify(bonus)})`);
  return {
    startStep: startStep as number,
    stepReward: shaping === 'progress' ? 1 / total : 1,
    terminalBonus: bonus as number,
  };
}
