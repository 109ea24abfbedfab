import { describe, expect, it } from 'vitest';
import { ValidationError } from '@gauntlet/proto';
import { parseGauntletOptions } from './options.js';

describe('parseGauntletOptions', () => {
  it('defaults to step 1, 1.0 per step, no bonus', () => {
    expect(parseGauntletOptions({}, 30, 'gauntlet')).toEqual({ startStep: 1, stepReward: 1, terminalBonus: 0 });
  });

  it('progress shaping pays 1/steps; the bonus is taken as given', () => {
    expect(parseGauntletOptions({ shaping: 'progress', terminal_bonus: 2, start_step: 30 }, 30, 'gauntlet')).toEqual({
      startStep: 30,
      stepReward: 1 / 30,
      terminalBonus: 2,
    });
  });

  it('reports the option, the rule and the value, with a request path', () => {
    try {
      parseGauntletOptions({ start_step: 99 }, 30, 'gauntlet');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).message).toBe('options.start_step: must be between 1 and 30 (got 99)');
      expect((error as ValidationError).issues[0]).toMatchObject({ loc: ['body', 'options', 'start_step'], input: 99 });
    }
  });
});
