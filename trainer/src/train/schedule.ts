export interface ScheduleOptions {
  lr: number;
  /** Steps of linear warmup from 0 (default 0). */
  warmupSteps?: number;
  /** After warmup: hold, or decay to minLr by totalSteps. */
  decay?: 'constant' | 'linear' | 'cosine';
  totalSteps?: number;
  minLr?: number;
}

/** The learning rate at optimizer step `step` (0-based). */
export function learningRate(s: ScheduleOptions, step: number): number {
  const warmup = s.warmupSteps ?? 0;
  if (step < warmup) return (s.lr * (step + 1)) / (warmup + 1);
  const decay = s.decay ?? 'constant';
  if (decay === 'constant') return s.lr;
  if (s.totalSteps === undefined || s.totalSteps <= warmup)
    throw new RangeError(`a ${decay} schedule needs totalSteps > warmupSteps (${warmup})`);
  const minLr = s.minLr ?? 0;
  const progress = Math.min(1, (step - warmup) / (s.totalSteps - warmup));
  const shape = decay === 'linear' ? 1 - progress : 0.5 * (1 + Math.cos(Math.PI * progress));
  return minLr + (s.lr - minLr) * shape;
}
