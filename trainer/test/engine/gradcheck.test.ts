import { describe, expect, test } from 'vitest';
import { backwardRules, nonDifferentiable } from '../../src/engine/backward.js';
import { gradcheck } from '../../src/engine/gradcheck.js';
import { opTable } from '../../src/engine/op-table.js';
import { gradcheckCases } from './gradcheck-cases.js';

describe('backward rule table', () => {
  test('every rule has a finite-difference case', () => {
    const covered = new Set(gradcheckCases.map((c) => c.op));
    const missing = Object.keys(backwardRules).filter((op) => !covered.has(op));
    expect(missing, `rules without a gradcheck case: ${missing.join(', ')}`).toEqual([]);
  });

  test('every op is either differentiable or declared not to be', () => {
    const ops = Object.keys(opTable);
    const unclassified = ops.filter((op) => !(op in backwardRules) && !nonDifferentiable.has(op as never));
    const both = ops.filter((op) => op in backwardRules && nonDifferentiable.has(op as never));
    expect({ unclassified, both }).toEqual({ unclassified: [], both: [] });
  });
});

describe('gradcheck (float64, central differences)', () => {
  test.each(gradcheckCases.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const diffs = await gradcheck(c);
    for (const d of diffs)
      console.log(
        `${c.label} · ${d.name}: max|Δ| = ${d.maxAbsDiff.toExponential(2)} (max|grad| ${d.maxAbsGrad.toExponential(2)})`,
      );
    expect(diffs.length).toBeGreaterThan(0);
    for (const d of diffs) expect(d.worstRatio, `${c.label} · ${d.name}`).toBeLessThanOrEqual(1);
  });
});
