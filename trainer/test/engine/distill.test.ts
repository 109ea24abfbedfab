import { describe, expect, test } from 'vitest';
import { distillationKl } from '../../src/engine/composites/distill.js';
import { f64, i64 } from '../../src/engine/host-tensor.js';
import { evaluate } from './run-graph.js';

// Student p = (1/3, 2/3) (logits 0, ln 2), teacher q = (1/2, 1/2): worked by hand.
const FORWARD = 0.5 * Math.log(0.5 / (1 / 3)) + 0.5 * Math.log(0.5 / (2 / 3)); // KL(q ‖ p) = ½ ln 1.125
const REVERSE = (1 / 3) * Math.log(1 / 3 / 0.5) + (2 / 3) * Math.log(2 / 3 / 0.5); // KL(p ‖ q)

async function kl(student: number[], teacher: number[], mix: number, support?: number[]): Promise<number[]> {
  const width = teacher.length;
  const inputs = [
    { name: 's', dtype: 'float64' as const, shape: [1, student.length], value: f64([1, student.length], student) },
    { name: 't', dtype: 'float64' as const, shape: [1, width], value: f64([1, width], teacher) },
    ...(support ? [{ name: 'k', dtype: 'int64' as const, shape: [1, width], value: i64([1, width], support) }] : []),
  ];
  const out = await evaluate(inputs, ([s, t, k]) => distillationKl(s!, t!, mix, k));
  return Array.from(out.data as Float64Array);
}

describe('distillation KL between a student and a teacher, per token', () => {
  const student = [0, Math.log(2)];
  const teacher = [Math.log(0.5), Math.log(0.5)];

  test('mix 0 is the forward KL(teacher ‖ student)', async () => {
    expect((await kl(student, teacher, 0))[0]).toBeCloseTo(FORWARD, 12);
  });

  test('mix 1 is the reverse KL(student ‖ teacher)', async () => {
    expect((await kl(student, teacher, 1))[0]).toBeCloseTo(REVERSE, 12);
    expect(FORWARD).not.toBeCloseTo(REVERSE, 3); // the two directions differ here, so the test tells them apart
  });

  test('a mix weighs the two: 0.25 → ¾ forward + ¼ reverse', async () => {
    expect((await kl(student, teacher, 0.25))[0]).toBeCloseTo(0.75 * FORWARD + 0.25 * REVERSE, 12);
  });

  test('equal distributions are 0 apart, in both directions', async () => {
    const same = [Math.log(0.2), Math.log(0.3), Math.log(0.5)];
    for (const mix of [0, 0.5, 1]) expect((await kl(same, same, mix))[0]).toBeCloseTo(0, 12);
  });

  test("top-k: the student is renormalised on the teacher's k ids", async () => {
    // Student logits (0, ln 2, 5) restricted to ids {1, 0}: (2/3, 1/3) in that order; teacher (½, ½) there.
    const topK = await kl([0, Math.log(2), 5], teacher, 1, [1, 0]);
    expect(topK[0]).toBeCloseTo((2 / 3) * Math.log(2 / 3 / 0.5) + (1 / 3) * Math.log(1 / 3 / 0.5), 12);
    expect((await kl([0, Math.log(2), 5], teacher, 0, [0, 1]))[0]).toBeCloseTo(FORWARD, 12);
  });

  test('a mix outside [0, 1] is refused', async () => {
    await expect(kl(student, teacher, 1.5)).rejects.toThrow(/mix must be in \[0, 1\], got 1.5/);
  });
});
