/** How the curriculum steers sampling; every field has a default (see DEFAULT_CURRICULUM). */
export interface CurriculumOptions {
  /** Episodes per task the success rate is measured over (most recent first). */
  window: number;
  /**
   * Weight of a task whose recent success is all 0 or all 1, relative to one at 0.5 (weight 1):
   * such groups have equal rewards and teach nothing, but the task is still checked now and then.
   */
  floor: number;
  /** Off: tasks are drawn by their weights alone. */
  enabled: boolean;
  /**
   * Gauntlet tasks (name starting with `gauntlet`) start episodes at this step (reset option
   * start_step; 0 = from the beginning, and no start_step curriculum).
   */
  startStep: number;
  /** Move start_step one step earlier (harder) once recent success at it reaches this. */
  promoteAt: number;
  /** Move it one step later (easier) when recent success at it falls to this. */
  demoteAt: number;
}

export const DEFAULT_CURRICULUM: CurriculumOptions = {
  window: 32,
  floor: 0.1,
  enabled: true,
  startStep: 0,
  promoteAt: 0.8,
  demoteAt: 0.1,
};

/** What a checkpoint keeps of the curriculum. */
export interface CurriculumState {
  /** Recent outcomes per task (1 = success), oldest first, at most `window`. */
  recent: Record<string, number[]>;
  /** Current start_step per Gauntlet task. */
  startSteps: Record<string, number>;
}

/**
 * Favours tasks whose recent success rate is neither 0 nor 1 (their groups have reward spread,
 * so non-zero advantages): weight factor floor + (1 − floor)·4p(1−p), 1 for a task not yet seen.
 * For the Gauntlet it also runs a reverse curriculum on start_step: start late in the sequence,
 * move earlier as the policy succeeds there, back later when it fails.
 */
export class Curriculum {
  private readonly recent = new Map<string, number[]>();
  private readonly startSteps = new Map<string, number>();

  constructor(readonly options: CurriculumOptions = DEFAULT_CURRICULUM) {}

  /** The multiplier of a task's base weight. */
  factor(task: string): number {
    if (!this.options.enabled) return 1;
    const p = this.successRate(task);
    if (p === undefined) return 1;
    return this.options.floor + (1 - this.options.floor) * 4 * p * (1 - p);
  }

  /** Recent success rate, or undefined before any episode of the task. */
  successRate(task: string): number | undefined {
    const r = this.recent.get(task);
    return r?.length ? r.reduce((a, b) => a + b, 0) / r.length : undefined;
  }

  /** Reset options for the next group of `task` (start_step for the Gauntlet when that curriculum is on). */
  resetOptions(task: string): Record<string, unknown> {
    if (!this.usesStartStep(task)) return {};
    return { start_step: this.startSteps.get(task) ?? this.options.startStep };
  }

  /**
   * Records a finished group's outcomes. `startStep` is the start_step the group was played from:
   * a group played from an older start_step moves nothing.
   */
  record(task: string, successes: readonly boolean[], startStep?: number): void {
    const r = this.recent.get(task) ?? [];
    const current = this.startSteps.get(task) ?? this.options.startStep;
    const sameStart = !this.usesStartStep(task) || startStep === current;
    if (!sameStart) return;
    r.push(...successes.map((s) => (s ? 1 : 0)));
    r.splice(0, Math.max(0, r.length - this.options.window));
    this.recent.set(task, r);
    if (!this.usesStartStep(task) || r.length < Math.ceil(this.options.window / 2)) return;
    const p = this.successRate(task)!;
    const next = p >= this.options.promoteAt ? current - 1 : p <= this.options.demoteAt ? current + 1 : current;
    const bounded = Math.max(0, Math.min(this.options.startStep, next));
    if (bounded !== current) {
      this.startSteps.set(task, bounded);
      // Success at the new start step starts from scratch.
      this.recent.set(task, []);
    }
  }

  state(): CurriculumState {
    return {
      recent: Object.fromEntries([...this.recent].map(([k, v]) => [k, [...v]])),
      startSteps: Object.fromEntries(this.startSteps),
    };
  }

  restore(state: CurriculumState): void {
    this.recent.clear();
    this.startSteps.clear();
    for (const [k, v] of Object.entries(state.recent)) this.recent.set(k, [...v]);
    for (const [k, v] of Object.entries(state.startSteps)) this.startSteps.set(k, v);
  }

  private usesStartStep(task: string): boolean {
    // The whole Gauntlet only: a single challenge type (`gauntlet:<type>`) has one step to start on.
    return this.options.enabled && this.options.startStep > 0 && /^(browsergym\/)?gauntlet[^:]*$/.test(task);
  }
}
