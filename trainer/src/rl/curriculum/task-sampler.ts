import { SeededStream } from '@gauntlet/proto/random';
import type { Curriculum } from './curriculum.js';
import type { TaskSpec } from './task-spec.js';

/** The next group to ask for: task, env seed and reset options. */
export interface GroupDraw {
  task: string;
  seed: number;
  resetOptions: Record<string, unknown>;
}

/** Env seeds are drawn below this (the env takes any non-negative integer). */
const SEED_RANGE = 2 ** 31;

/**
 * Draws tasks in proportion to weight × curriculum factor, and a fresh env seed per group, from
 * one seeded stream: a resumed run that restores the stream's state draws what the first would have.
 */
export class TaskSampler {
  readonly stream: SeededStream;

  constructor(
    readonly tasks: readonly TaskSpec[],
    readonly curriculum: Curriculum,
    seed: number,
  ) {
    if (tasks.length === 0) throw new RangeError('the task sampler needs at least one task');
    this.stream = new SeededStream(seed);
  }

  /** Each task's probability of being drawn next. */
  probabilities(): Map<string, number> {
    const weights = this.tasks.map((t) => t.weight * this.curriculum.factor(t.name));
    const total = weights.reduce((a, b) => a + b, 0);
    return new Map(this.tasks.map((t, i) => [t.name, weights[i]! / total]));
  }

  next(): GroupDraw {
    const probabilities = [...this.probabilities()];
    let u = this.stream.next();
    let task = probabilities.at(-1)![0];
    for (const [name, p] of probabilities) {
      if (u < p) {
        task = name;
        break;
      }
      u -= p;
    }
    const seed = Math.floor(this.stream.next() * SEED_RANGE);
    const fixed = this.tasks.find((t) => t.name === task)?.resetOptions;
    return { task, seed, resetOptions: { ...this.curriculum.resetOptions(task), ...fixed } };
  }
}
