import type { TrajectoryGroup } from '@gauntlet/proto/rollout';

/**
 * Where every group this process submitted (or took over from a checkpoint) went. At any time
 * submitted + adopted = consumed + dropped + retired + abandoned + lost + in flight (+ admitted,
 * untrained),
 * and consumed = admitted + stale + rejected + bad groups of this process.
 */
export interface GroupCounts {
  submitted: number;
  /**
   * Taken over from the checkpoint a resumed run started from: in flight then, or admitted then
   * (those also count as consumed and admitted).
   */
  adopted: number;
  /** Taken off the trainer's queue (admitted, stale, or arrived after the last update). */
  consumed: number;
  admitted: number;
  /** Consumed but older than max_staleness: dropped at admission. */
  stale: number;
  /** Consumed, but a turn came from another adapter than the version asked for: not trained on. */
  rejected: number;
  /** Consumed after the last update: nothing left to train them. */
  unused: number;
  /** Dropped by the rollout workers (an episode out of tries). */
  dropped: number;
  /**
   * Given up by the workers because the server had already unloaded their version (the run
   * moved past it while they waited): stale before they were played, never a failure.
   */
  retired: number;
  /** Removed from the queues at the end, still unplayed. */
  abandoned: number;
  /** Adopted from a checkpoint but consumed by the earlier process after it: nothing to train. */
  lost: number;
  /** Groups from an earlier process of this run, another run, or malformed jobs. */
  foreign: number;
  /**
   * Jobs refused before admission: malformed payloads, and groups whose tokens, lengths,
   * log-probs or rewards the model cannot take (those of this process also count as consumed).
   */
  bad: number;
  /** Admitted, but the engine failed the update on their batch: dropped, not trained on. */
  failed: number;
}

/** The counts the curves show as running totals: a resumed run goes on from its checkpoint's, never from 0. */
export const RUN_TOTAL_KEYS = [
  'submitted',
  'dropped',
  'stale',
  'retired',
  'bad',
  'foreign',
  'rejected',
  'failed',
] as const;
export type RunTotals = Record<(typeof RUN_TOTAL_KEYS)[number], number>;

/** The run's totals: those of the processes before this one (a checkpoint's) plus this process's counts. */
export function runTotals(counts: GroupCounts, before?: Partial<RunTotals>): RunTotals {
  return Object.fromEntries(RUN_TOTAL_KEYS.map((k) => [k, (before?.[k] ?? 0) + counts[k]])) as RunTotals;
}

export const zeroCounts = (): GroupCounts => ({
  submitted: 0,
  adopted: 0,
  consumed: 0,
  admitted: 0,
  stale: 0,
  rejected: 0,
  unused: 0,
  dropped: 0,
  retired: 0,
  abandoned: 0,
  lost: 0,
  foreign: 0,
  bad: 0,
  failed: 0,
});

/** What one update trained on, in the run report's terms. */
export interface BatchSummary {
  metrics: Record<string, number>;
  successByTask: Record<string, number>;
  trajectories: number;
  envSteps: number;
}

/** Outcome fractions, success overall and per task, and throughput of the groups one update trained on. */
export function batchSummary(groups: readonly TrajectoryGroup[], seconds: number): BatchSummary {
  const episodes = groups.flatMap((g) => g.trajectories);
  const metrics: Record<string, number> = {};
  for (const outcome of ['success', 'fail', 'timeout'] as const)
    metrics[`outcomes/${outcome}`] = episodes.filter((t) => t.outcome === outcome).length / episodes.length;
  metrics['success_rate'] = metrics['outcomes/success']!;
  const byTask = new Map<string, boolean[]>();
  for (const t of episodes) byTask.set(t.task, [...(byTask.get(t.task) ?? []), t.outcome === 'success']);
  const successByTask = Object.fromEntries([...byTask].map(([task, s]) => [task, s.filter(Boolean).length / s.length]));
  const envSteps = episodes.reduce((n, t) => n + t.turns.length, 0);
  metrics['throughput/env_steps_per_s'] = envSteps / Math.max(seconds, 1e-9);
  metrics['throughput/trajectories_per_s'] = episodes.length / Math.max(seconds, 1e-9);
  metrics['episodes/mean_turns'] = envSteps / episodes.length;
  return { metrics, successByTask, trajectories: episodes.length, envSteps };
}
