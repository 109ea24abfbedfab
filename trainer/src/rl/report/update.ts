import { z } from 'zod';

const count = z.number().int().min(0);
/** Non-finite values (a NaN ratio over zero tokens) are kept as null: JSON has no NaN. */
const value = z.custom<number>((v) => typeof v === 'number', 'expected a number').nullable();

/** One optimizer update as the loop reports it. Extra fields are kept in the JSONL line. */
export const runUpdate = z.looseObject({
  step: count,
  version: count,
  /** TRL-named metrics (`reward`, `kl`, `clip_ratio/low_mean`, …) and ours. */
  metrics: z.record(z.string().min(1), value),
  /** Success rate of this update's groups, per task. */
  successByTask: z.record(z.string().min(1), value),
  /** Trajectories consumed by this update (for trajectories/s). */
  trajectories: count.optional(),
  /** Environment steps in those trajectories (for env steps/s). */
  envSteps: count.optional(),
  /** When the update finished, Unix ms (default: when it is recorded). */
  time: z.number().optional(),
});
export type RunUpdate = z.input<typeof runUpdate>;

/** An update as stored: time filled in, non-finite numbers as null. */
export interface RecordedUpdate {
  step: number;
  version: number;
  time: number;
  metrics: Record<string, number | null>;
  successByTask: Record<string, number | null>;
  trajectories?: number;
  envSteps?: number;
  [extra: string]: unknown;
}

/** Validates an update (RangeError naming the field) and normalises it for storage. */
export function normaliseUpdate(update: RunUpdate, now = Date.now()): RecordedUpdate {
  const finite = (record: Record<string, number | null>) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v !== null && Number.isFinite(v) ? v : null]));
  const parsed = runUpdate.safeParse(update);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RangeError(`run report update: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const u = parsed.data;
  return {
    ...u,
    time: u.time ?? now,
    metrics: finite(u.metrics),
    successByTask: finite(u.successByTask),
  } as RecordedUpdate;
}

/** The overall success rate: the loop's `success_rate` metric, else the mean over tasks. */
export function overallSuccess(update: RecordedUpdate): number | null {
  const given = update.metrics['success_rate'];
  if (typeof given === 'number') return given;
  const rates = Object.values(update.successByTask).filter((v): v is number => v !== null);
  return rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null;
}
