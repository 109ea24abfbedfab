import { describe, expect, test } from 'vitest';
import { copyAdapter, initLoraAdapter } from '../../lora/adapter.js';
import { makeLoraConfig } from '../../lora/config.js';
import { tinyModelConfig } from '../../model/tiny.js';
import { emaUpdate } from './ema.js';

const model = tinyModelConfig({ hiddenSize: 16, intermediateSize: 24, numHeads: 2, numKvHeads: 1, numLayers: 1 });
const lora = makeLoraConfig({ rank: 2, targets: ['q_proj', 'v_proj'] });

describe('EMA of the teacher adapter', () => {
  test('teacher ← (1 − α)·teacher + α·student on every factor', () => {
    const teacher = initLoraAdapter(model, lora, 1);
    const student = initLoraAdapter(model, lora, 2);
    for (const m of student.modules.values()) m.b.data.fill(1);
    const before = copyAdapter(teacher);
    emaUpdate(teacher, student, 0.25);
    for (const [path, m] of teacher.modules) {
      const [t0, s] = [before.modules.get(path)!, student.modules.get(path)!];
      m.a.data.forEach((v, i) => expect(v).toBeCloseTo(0.75 * t0.a.data[i]! + 0.25 * s.a.data[i]!, 6));
      m.b.data.forEach((v) => expect(v).toBeCloseTo(0.25, 6)); // 0.75 · 0 + 0.25 · 1
    }
  });

  test('α 0 leaves the teacher, α 1 copies the student; the student never changes', () => {
    const teacher = initLoraAdapter(model, lora, 1);
    const student = initLoraAdapter(model, lora, 2);
    const [t0, s0] = [copyAdapter(teacher), copyAdapter(student)];
    emaUpdate(teacher, student, 0);
    expect(teacher.modules).toEqual(t0.modules);
    emaUpdate(teacher, student, 1);
    expect(teacher.modules).toEqual(s0.modules);
    expect(student.modules).toEqual(s0.modules);
  });

  test('an adapter of another layout or a rate outside [0, 1] is refused', () => {
    const teacher = initLoraAdapter(model, lora, 1);
    expect(() =>
      emaUpdate(teacher, initLoraAdapter(model, makeLoraConfig({ rank: 3, targets: ['q_proj', 'v_proj'] }), 0), 0.1),
    ).toThrow(/q_proj is \[2, 16\] in the teacher, \[3, 16\] in the student/);
    expect(() => emaUpdate(teacher, initLoraAdapter(model, makeLoraConfig({ targets: ['q_proj'] }), 0), 0.1)).toThrow(
      /the teacher has 2 modules, the student 1/,
    );
    expect(() => emaUpdate(teacher, teacher, 1.5)).toThrow(/EMA alpha must be in \[0, 1\], got 1.5/);
  });
});
