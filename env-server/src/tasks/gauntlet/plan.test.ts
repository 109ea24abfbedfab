import { describe, expect, it } from 'vitest';
import { CHALLENGE_TYPES } from './challenges/index.js';
import { CODE_PATTERN } from './codes.js';
import { GAUNTLET_STEPS, orderTypes, planRun } from './plan.js';
import { Rng } from './rng.js';

describe('planRun', () => {
  it('is a pure function of the seed', () => {
    expect(planRun(7)).toEqual(planRun(7));
    expect(planRun(7, 'canvas')).toEqual(planRun(7, 'canvas'));
    expect(planRun(7).steps.map((s) => s.code)).not.toEqual(planRun(8).steps.map((s) => s.code));
  });

  it.each([0, 1, 99, 2 ** 31 - 1, Number.MAX_SAFE_INTEGER])(
    'seed %d: 30 steps, every type, unique well-formed codes, no type twice in a row',
    (seed) => {
      const { steps } = planRun(seed);
      expect(steps).toHaveLength(GAUNTLET_STEPS);
      expect(new Set(steps.map((s) => s.type))).toEqual(new Set(CHALLENGE_TYPES));
      expect(new Set(steps.map((s) => s.code)).size).toBe(GAUNTLET_STEPS);
      for (const [i, s] of steps.entries()) {
        expect(s.code).toMatch(CODE_PATTERN);
        if (i > 0) expect(s.type).not.toBe(steps[i - 1]!.type);
      }
    },
  );

  it('never puts a code into the params the page receives (200 seeds, every type)', () => {
    for (let seed = 0; seed < 200; seed++) {
      for (const step of planRun(seed).steps) expect(JSON.stringify(step.params)).not.toContain(step.code);
    }
  });

  it('a single-type run is one step of that type', () => {
    for (const type of CHALLENGE_TYPES) expect(planRun(3, type).steps.map((s) => s.type)).toEqual([type]);
  });

  it('different seeds order the types differently', () => {
    const orders = new Set(
      Array.from({ length: 20 }, (_, seed) =>
        planRun(seed)
          .steps.map((s) => s.type)
          .join(),
      ),
    );
    expect(orders.size).toBe(20);
  });
});

describe('orderTypes', () => {
  it('refuses a run too short to hold every type', () => {
    expect(() => orderTypes(new Rng(1), CHALLENGE_TYPES, 5)).toThrow(/cannot hold all 21 types/);
  });
});

describe('Rng', () => {
  it('keys streams by every part, and stays in range', () => {
    expect(new Rng(1, 'step', 2).next()).not.toBe(new Rng(1, 'step', 3).next());
    expect(new Rng(1, 'a').next()).toBe(new Rng(1, 'a').next());
    const rng = new Rng(5);
    for (let i = 0; i < 1000; i++) {
      const n = rng.int(3, 7);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(7);
      expect(rng.round(100, 400, 50) % 50).toBe(0);
    }
    expect(() => rng.sample([1, 2], 3)).toThrow(RangeError);
  });
});
