import { describe, expect, it } from 'vitest';
import { group, turn } from '../../../test/support/trajectories.js';
import { admitGroup } from './staleness.js';

const at = (version: number, run = 'run') => ({
  model: `${run}@v${version}`,
  adapter: `${run}@v${version}`,
  version,
});

describe('staleness admission', () => {
  it('admits groups at most max_staleness versions behind, and says how far', () => {
    expect(admitGroup(group('g', [1, 0], at(3)), 'run', 4, 1)).toEqual({ admitted: true, staleness: 1 });
    expect(admitGroup(group('g', [1, 0], at(2)), 'run', 4, 1)).toEqual({
      admitted: false,
      reason: 'stale',
      staleness: 2,
    });
  });

  it('max_staleness 0 is strictly on-policy', () => {
    expect(admitGroup(group('g', [1], at(4)), 'run', 4, 0).admitted).toBe(true);
    expect(admitGroup(group('g', [1], at(3)), 'run', 4, 0)).toMatchObject({ admitted: false, reason: 'stale' });
  });

  it('the oldest turn decides', () => {
    const g = group('g', [1, 0], at(4), (i) => [
      turn(0, { completion_ids: [1], logprobs: [-1], policy: i === 0 ? at(4) : at(2) }),
    ]);
    expect(admitGroup(g, 'run', 4, 1)).toMatchObject({ admitted: false, staleness: 2 });
  });

  it('refuses groups of another run, of the base model, or from the future as foreign', () => {
    expect(admitGroup(group('g', [1], at(1, 'other')), 'run', 1, 4)).toMatchObject({ reason: 'foreign' });
    expect(admitGroup(group('g', [1], { model: 'tiny', adapter: null, version: null }), 'run', 1, 4)).toMatchObject({
      reason: 'foreign',
    });
    expect(admitGroup(group('g', [1], at(5)), 'run', 4, 4)).toMatchObject({ reason: 'foreign' });
  });
});
