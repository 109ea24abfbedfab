import type { CheckpointState, JsonValue, LoadedCheckpoint } from '../checkpoint/index.js';
import type { TaskSampler } from '../curriculum/task-sampler.js';
import type { GrpoLearner } from '../../train/grpo/index.js';
import { TrajectoryGroup } from '@gauntlet/proto/rollout';
import type { GrpoLoop, PendingGroups } from './grpo-loop.js';
import { runTotals, type GroupCounts, type RunTotals } from './loop-counters.js';

/** The parts of a run a checkpoint captures and a resume restores. */
export interface RunParts {
  learner: GrpoLearner;
  sampler: TaskSampler;
  /** The run's settings as JSON (recorded; a resume checks the run name against it). */
  config: JsonValue;
  baseModel: string;
}

/** A checkpoint of the run after `loop.version` updates (taken between updates). */
export function checkpointOf(
  loop: Pick<GrpoLoop, 'version' | 'counts' | 'pending' | 'totals'> & Partial<Pick<GrpoLoop, 'earlier'>>,
  parts: RunParts,
): CheckpointState {
  return {
    step: loop.version,
    version: loop.version,
    ...parts.learner.trainer.policy,
    optimizer: parts.learner.trainer.exportState(),
    rngState: { sampler: parts.sampler.stream.state },
    config: parts.config,
    curriculum: parts.sampler.curriculum.state() as unknown as JsonValue,
    // The loop's groups between submission and training, so a resumed run trains on what this one would have.
    // `totals`: the run's running totals (every process so far), which a resumed run's curves go on from.
    counters: { counts: { ...loop.counts }, totals: loop.totals(), pending: loop.pending() } as unknown as JsonValue,
    baseModel: parts.baseModel,
    // Groups in flight may still ask for these: a resumed in-process server serves them again.
    earlier: loop.earlier?.() ?? [],
  };
}

/** What a resumed loop is handed: the groups it takes over, and the running totals it goes on from. */
export interface RestoredRun {
  pending: PendingGroups | undefined;
  totals: Partial<RunTotals>;
}

/**
 * Puts a run back where the checkpoint left it: optimizer moments and step, the task sampler's
 * stream, the curriculum; returns the groups the loop takes over and the run's totals. (The trained tensors themselves
 * are passed to the learner when it is created: `adapter` and `trained`.)
 */
export function restoreRun(checkpoint: LoadedCheckpoint, parts: Pick<RunParts, 'learner' | 'sampler'>): RestoredRun {
  parts.learner.trainer.importState(checkpoint.optimizer);
  const rng = checkpoint.rngState as { sampler?: unknown };
  if (typeof rng?.sampler !== 'number')
    throw new RangeError(`checkpoint ${checkpoint.path}: rngState.sampler is missing; it was not written by grpo`);
  parts.sampler.stream.state = rng.sampler;
  parts.sampler.curriculum.restore(checkpoint.curriculum as never);
  const counters = checkpoint.counters as { pending?: PendingGroups; totals?: RunTotals; counts?: GroupCounts } | null;
  const pending = counters?.pending;
  return {
    pending: pending
      ? {
          outstanding: pending.outstanding,
          batch: pending.batch.map((b) => ({ ...b, group: TrajectoryGroup.parse(b.group) })),
        }
      : undefined,
    // Checkpoints written before totals were kept had one process: its counts are the run's.
    totals: counters?.totals ?? (counters?.counts ? runTotals(counters.counts) : {}),
  };
}
