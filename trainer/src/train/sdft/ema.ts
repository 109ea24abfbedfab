import type { LoraAdapter } from '../../lora/adapter.js';
import { formatShape, sameShape } from '../../model/tensor.js';

/** SDFT's default teacher rate: the teacher moves 2 % of the way to the student per step. */
export const DEFAULT_EMA_ALPHA = 0.02;

/**
 * teacher ← (1 − α)·teacher + α·student, factor by factor, in place. The average is taken over A
 * and B separately (as over any other weights), not over their product B·A: with α small the two
 * differ by a second-order term, and factors are what an adapter stores.
 */
export function emaUpdate(teacher: LoraAdapter, student: LoraAdapter, alpha: number): void {
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`EMA alpha must be in [0, 1], got ${alpha}`);
  if (teacher.modules.size !== student.modules.size)
    throw new RangeError(`EMA: the teacher has ${teacher.modules.size} modules, the student ${student.modules.size}`);
  for (const [path, t] of teacher.modules) {
    const s = student.modules.get(path);
    if (!s) throw new RangeError(`EMA: the student has no module ${path}`);
    for (const [mine, theirs] of [
      [t.a, s.a],
      [t.b, s.b],
    ] as const) {
      if (!sameShape(mine.shape, theirs.shape))
        throw new RangeError(
          `EMA: ${path} is ${formatShape(mine.shape)} in the teacher, ${formatShape(theirs.shape)} in the student`,
        );
      const [a, b] = [mine.data, theirs.data];
      for (let i = 0; i < a.length; i++) a[i] = (1 - alpha) * a[i]! + alpha * b[i]!;
    }
  }
}
